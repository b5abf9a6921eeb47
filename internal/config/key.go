package config

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Source says where a key's effective value came from.
type Source string

// Sources, in increasing precedence.
const (
	FromDefault Source = "default"
	FromFile    Source = "file"
	FromEnv     Source = "env"
	FromStore   Source = "store" // a switch set with `cairn config set`
)

// Key describes one knob and its effective value.
type Key struct {
	Name   string `json:"key"`
	Env    string `json:"env"`
	Value  string `json:"value"`
	Source Source `json:"source"`
	Doc    string `json:"doc"`
}

// field pairs a key's dotted name with the struct field that holds it.
type field struct {
	name string
	env  string
	doc  string
	v    reflect.Value
}

// fields walks c and returns every leaf knob in declaration order.
func fields(c *Config) []field {
	var out []field
	root := reflect.ValueOf(c).Elem()
	rt := root.Type()
	for i := range rt.NumField() {
		table := rt.Field(i).Tag.Get("toml")
		tv := root.Field(i)
		tt := tv.Type()
		for j := range tt.NumField() {
			f := tt.Field(j)
			name := table + "." + f.Tag.Get("toml")
			out = append(out, field{
				name: name,
				env:  EnvName(name),
				doc:  f.Tag.Get("doc"),
				v:    tv.Field(j),
			})
		}
	}
	return out
}

// EnvName is the environment variable that overrides a dotted key:
// recall.l1_limit → CAIRN_RECALL_L1_LIMIT.
func EnvName(key string) string {
	return "CAIRN_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// Names lists every key, sorted.
func Names() []string {
	c := Default()
	var out []string
	for _, f := range fields(&c) {
		out = append(out, f.name)
	}
	sort.Strings(out)
	return out
}

func format(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case Duration:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// set parses s into the field's type.
func set(v reflect.Value, s string) error {
	s = strings.TrimSpace(s)
	switch v.Interface().(type) {
	case Duration:
		d, err := ParseDuration(s)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(Duration(d)))
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("invalid boolean %q: use true or false", s)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("invalid integer %q", s)
		}
		v.SetInt(n)
	case reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("invalid number %q", s)
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(s)
	default:
		return fmt.Errorf("unsupported kind %s", v.Kind())
	}
	return nil
}
