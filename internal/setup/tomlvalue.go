package setup

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// tomlKV is one key of a table cairn writes, in the order it is written.
type tomlKV struct {
	Key   string
	Value any
}

// tomlTable renders the table at path: cairn's own keys first in their
// order, then the keys a person added (kept from the old table, sorted),
// then sub-tables for map values.
func tomlTable(path []string, ours []tomlKV, extra map[string]any) (string, error) {
	kvs := append([]tomlKV(nil), ours...)
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kvs = append(kvs, tomlKV{k, extra[k]})
	}
	var b strings.Builder
	if err := writeTOMLTable(&b, path, kvs); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeTOMLTable(b *strings.Builder, path []string, kvs []tomlKV) error {
	b.WriteString("[" + tomlPath(path) + "]\n")
	var subs []tomlKV
	for _, kv := range kvs {
		if m, ok := kv.Value.(map[string]any); ok {
			subs = append(subs, tomlKV{kv.Key, m})
			continue
		}
		v, err := tomlValue(kv.Value)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", strings.Join(path, "."), kv.Key, err)
		}
		b.WriteString(tomlKey(kv.Key) + " = " + v + "\n")
	}
	for _, s := range subs {
		m := s.Value.(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		inner := make([]tomlKV, 0, len(keys))
		for _, k := range keys {
			inner = append(inner, tomlKV{k, m[k]})
		}
		if err := writeTOMLTable(b, append(append([]string(nil), path...), s.Key), inner); err != nil {
			return err
		}
	}
	return nil
}

// tomlValue writes one value inline, for the types the TOML decoder
// produces and the ones cairn writes.
func tomlValue(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return tomlString(t), nil
	case bool:
		return strconv.FormatBool(t), nil
	case int:
		return strconv.Itoa(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case float64:
		switch {
		case math.IsNaN(t):
			return "nan", nil
		case math.IsInf(t, 1):
			return "inf", nil
		case math.IsInf(t, -1):
			return "-inf", nil
		}
		s := strconv.FormatFloat(t, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s, nil
	case time.Time:
		// The TOML decoder marks local times with these zone names.
		switch t.Location().String() {
		case "datetime-local":
			return t.Format("2006-01-02T15:04:05.999999999"), nil
		case "date-local":
			return t.Format("2006-01-02"), nil
		case "time-local":
			return t.Format("15:04:05.999999999"), nil
		}
		return t.Format(time.RFC3339Nano), nil
	case []string:
		parts := make([]string, len(t))
		for i, s := range t {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			s, err := tomlValue(t[k])
			if err != nil {
				return "", err
			}
			parts = append(parts, tomlKey(k)+" = "+s)
		}
		if len(parts) == 0 {
			return "{}", nil
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice {
		parts := make([]string, rv.Len())
		for i := range parts {
			s, err := tomlValue(rv.Index(i).Interface())
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	return "", fmt.Errorf("cannot write a %T in TOML", v)
}
