package capture

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles its pattern on first use. Every cairn process links
// this package, a hook's included, and compiling its ~140 patterns at
// start was most of a process's start-up (the hook's latency target is
// 10 ms for the whole process); most processes never use them.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRE(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string     { return l.get().FindString(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
