// Package webui is cairn's memory screen: server-rendered pages where a
// person sees, corrects and trusts what cairn remembers (memory, facts,
// sessions and their receipts, the vault, settings, costs). Pages work
// without JavaScript and from the keyboard; the little script only adds
// shortcuts.
//
// It declares the ports it consumes (Engine; Options.Open and
// Options.Authenticate) and knows no store and no gateway: the app mounts
// it under /ui/ beside the gateway, or alone for `cairn ui`.
package webui
