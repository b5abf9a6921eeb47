package storetest

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"testing"
	"time"

	"github.com/cairn-memory/cairn/internal/gateway"
	"github.com/cairn-memory/cairn/internal/memory"
)

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// accountStore is the fixture's store as the gateway's AccountStore; every
// store a gateway runs on implements it.
func (e *env) accountStore() gateway.AccountStore {
	e.t.Helper()
	as, ok := e.Store.(gateway.AccountStore)
	if !ok {
		e.t.Fatalf("%T does not implement gateway.AccountStore", e.Store)
	}
	return as
}

func testAccounts(t *testing.T, open Open) {
	t.Run("accounts", func(t *testing.T) {
		e := newEnv(t, open)
		as := e.accountStore()
		team := must(as.CreateAccount(e.ctx, "team"))(t)
		if team.ID == 0 || team.ID == memory.LocalAccount || team.ID == e.Other || team.Name != "team" {
			t.Fatalf("new account: %+v", team)
		}
		_, err := as.CreateAccount(e.ctx, "team")
		wantCode(t, err, memory.CodeConflict)
		all := must(as.Accounts(e.ctx))(t)
		var ids []memory.AccountID
		for _, a := range all {
			ids = append(ids, a.ID)
		}
		if !slices.IsSorted(ids) || !slices.Contains(ids, memory.LocalAccount) || !slices.Contains(ids, e.Other) || !slices.Contains(ids, team.ID) || len(ids) != 3 {
			t.Fatalf("accounts, by id: %+v", all)
		}
		if got := must(as.AccountByName(e.ctx, "team"))(t); got != team {
			t.Fatalf("by name: %+v, want %+v", got, team)
		}
		_, err = as.AccountByName(e.ctx, "nobody")
		wantCode(t, err, memory.CodeNotFound)
	})

	t.Run("tokens", func(t *testing.T) {
		e := newEnv(t, open)
		as := e.accountStore()
		me, them := memory.LocalAccount, e.Other
		t1 := must(as.CreateToken(e.ctx, memory.Token{Account: me, Name: "laptop", Hint: "cairn_aaaa"}, hashOf("one")))(t)
		if t1.ID == 0 || !t1.CreatedAt.Equal(day0) || t1.Revoked() || t1.Account != me {
			t.Fatalf("created token: %+v", t1)
		}
		e.clock.Add(time.Minute)
		t2 := must(as.CreateToken(e.ctx, memory.Token{Account: me, Name: "ops", Hint: "cairn_bbbb", Operator: true}, hashOf("two")))(t)
		o1 := must(as.CreateToken(e.ctx, memory.Token{Account: them, Name: "theirs", Hint: "cairn_cccc"}, hashOf("three")))(t)

		mine := must(as.Tokens(e.ctx, me))(t)
		if len(mine) != 2 || mine[0] != t1 || mine[1] != t2 || !mine[1].Operator {
			t.Fatalf("my tokens, by id: %+v", mine)
		}
		if theirs := must(as.Tokens(e.ctx, them))(t); len(theirs) != 1 || theirs[0] != o1 {
			t.Fatalf("their tokens: %+v", theirs)
		}

		got, stored, err := as.TokenByHash(e.ctx, hashOf("two"))
		ok(t, err)
		if got != t2 || !bytes.Equal(stored, hashOf("two")) {
			t.Fatalf("by hash: %+v %x", got, stored)
		}
		if got, _, err := as.TokenByHash(e.ctx, hashOf("three")); err != nil || got.Account != them {
			t.Fatalf("another account's token by hash: %+v %v", got, err)
		}
		_, _, err = as.TokenByHash(e.ctx, hashOf("unknown"))
		wantCode(t, err, memory.CodeUnauthorized)

		// Revoking through the wrong account changes nothing.
		_, err = as.RevokeToken(e.ctx, me, o1.ID)
		wantCode(t, err, memory.CodeNotFound)
		if got, _, _ := as.TokenByHash(e.ctx, hashOf("three")); got.Revoked() {
			t.Fatal("another account revoked their token")
		}
		e.clock.Add(time.Minute)
		r := must(as.RevokeToken(e.ctx, me, t1.ID))(t)
		if !r.RevokedAt.Equal(day0.Add(2*time.Minute)) || r.ID != t1.ID {
			t.Fatalf("revoked: %+v", r)
		}
		e.clock.Add(time.Minute)
		if again := must(as.RevokeToken(e.ctx, me, t1.ID))(t); !again.RevokedAt.Equal(r.RevokedAt) {
			t.Fatalf("a second revoke moved the time: %+v", again)
		}
		if got, _, err := as.TokenByHash(e.ctx, hashOf("one")); err != nil || !got.Revoked() {
			t.Fatalf("a revoked token by hash: %+v %v", got, err)
		}
		_, err = as.RevokeToken(e.ctx, me, 1<<40)
		wantCode(t, err, memory.CodeNotFound)
	})
}
