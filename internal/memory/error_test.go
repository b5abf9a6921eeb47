package memory

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodesSurviveWrapping(t *testing.T) {
	base := Errorf(CodeNotFound, "no session 42; run `cairn sessions` to list them")
	wrapped := fmt.Errorf("show: %w", Wrap(CodeInternal, "load session", base))
	if ErrorCode(wrapped) != CodeNotFound {
		t.Fatalf("code %s", ErrorCode(wrapped))
	}
	if ErrorMessage(wrapped) != base.Message {
		t.Fatalf("message %q", ErrorMessage(wrapped))
	}
	plain := errors.New("disk on fire")
	if ErrorCode(plain) != CodeInternal || ErrorMessage(plain) != "" {
		t.Fatal("plain errors are internal with no user message")
	}
	if ErrorCode(nil) != "" || Wrap(CodeInvalid, "x", nil) != nil {
		t.Fatal("nil handling")
	}
	if got := Wrap(CodeInvalid, "parse", plain).Error(); got != "parse: disk on fire" {
		t.Fatalf("Error() = %q", got)
	}
}
