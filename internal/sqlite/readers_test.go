package sqlite

import (
	"context"
	"fmt"
	"testing"
)

func TestReadStatementsPreparedOnceAndBounded(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	// Past the cap, new texts run unprepared and still answer.
	for i := range readStmtCap + 20 {
		var got int
		if err := db.read.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + ?", i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("query %d: got %d, %v", i, got, err)
		}
	}
	db.read.mu.Lock()
	n := len(db.read.stmts)
	db.read.mu.Unlock()
	if n != readStmtCap {
		t.Fatalf("%d statements kept prepared, want the cap %d", n, readStmtCap)
	}
	// A kept statement gives fresh answers, and a bad one its own error.
	var got int
	if err := db.read.QueryRowContext(ctx, "SELECT 0 + ?", 41).Scan(&got); err != nil || got != 41 {
		t.Fatalf("reused statement: got %d, %v", got, err)
	}
	if _, err := db.read.QueryContext(ctx, "SELEC nothing"); err == nil {
		t.Fatal("a malformed query gave no error")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.read.QueryRowContext(ctx, "SELECT 0 + ?", 1).Scan(&got); err == nil {
		t.Fatal("a closed store answered a read")
	}
}
