package study

import (
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestMain removes the boxtax binary the lifecycle tests build.
func TestMain(m *testing.M) { testenv.Main(m) }
