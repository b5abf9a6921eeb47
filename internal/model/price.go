package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	In  float64 `json:"in"`
	Out float64 `json:"out"`
}

// DefaultPrices is the built-in price table, list prices of a few common
// models when this was written. It only estimates: `models.prices`
// overrides or extends it, and a model missing from both costs 0 (a local
// model, say) and is shown as unpriced.
const DefaultPrices = "gpt-4o-mini=0.15/0.6, gpt-4o=2.5/10, gpt-4.1-nano=0.1/0.4, gpt-4.1-mini=0.4/1.6, gpt-4.1=2/8, " +
	"claude-haiku-4-5=1/5, claude-sonnet-4-5=3/15, claude-opus-4-5=5/25"

// Prices maps a model name (or a prefix of one) to its price.
type Prices map[string]Price

// ParsePrices reads "model=in/out, model=in/out": dollars per million
// input and output tokens. An empty string is an empty table.
func ParsePrices(s string) (Prices, error) {
	out := Prices{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, rest, ok := strings.Cut(item, "=")
		in, outp, ok2 := strings.Cut(rest, "/")
		name = strings.TrimSpace(name)
		if !ok || !ok2 || name == "" {
			return nil, fmt.Errorf("price %q: write model=in/out, dollars per million tokens", item)
		}
		pin, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		pout, err2 := strconv.ParseFloat(strings.TrimSpace(outp), 64)
		if err1 != nil || err2 != nil || pin < 0 || pout < 0 {
			return nil, fmt.Errorf("price %q: in and out must be non-negative numbers", item)
		}
		out[name] = Price{In: pin, Out: pout}
	}
	return out, nil
}

// Merge returns p with every entry of over replacing or adding to it.
func (p Prices) Merge(over Prices) Prices {
	out := Prices{}
	for k, v := range p {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Lookup finds a model's price: its exact name, else the longest entry
// it starts with (so a dated name like claude-haiku-4-5-20251001 takes
// the price of claude-haiku-4-5).
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	for _, k := range keys {
		if strings.HasPrefix(model, k) {
			return p[k], true
		}
	}
	return Price{}, false
}

// Cost estimates the dollars of a call; ok is false for an unpriced model.
func (p Prices) Cost(model string, u Usage) (float64, bool) {
	if u.CostUSD > 0 {
		return u.CostUSD, true
	}
	pr, ok := p.Lookup(model)
	if !ok {
		return 0, false
	}
	return (float64(u.In)*pr.In + float64(u.Out)*pr.Out) / 1e6, true
}
