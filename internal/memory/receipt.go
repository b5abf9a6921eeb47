package memory

import "time"

// Receipt records what one recall sent to an agent.
type Receipt struct {
	ID         int64         `json:"id"`
	Provider   Provider      `json:"provider"`
	SessionRef string        `json:"session"`
	Kind       string        `json:"kind"` // standing | recall
	Request    string        `json:"request,omitempty"`
	RequestKey string        `json:"-"`
	TurnID     int64         `json:"turn_id,omitempty"`
	Status     string        `json:"status"`
	Items      []ReceiptItem `json:"items"`
	Text       string        `json:"text"`
	Tokens     int           `json:"tokens"`
	CreatedAt  time.Time     `json:"created_at"`
}

// ReceiptItem is one row a recall sent.
type ReceiptItem struct {
	Ref       string     `json:"ref"`
	Layer     Layer      `json:"layer"`
	ID        int64      `json:"id"`
	Category  string     `json:"category,omitempty"`
	Section   string     `json:"section"`
	Score     float64    `json:"score"`
	Evidence  []Evidence `json:"evidence,omitempty"`
	Statement bool       `json:"-"`
}
