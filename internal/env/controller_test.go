package env

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestControllerAlive(t *testing.T) {
	if ThisController() == "" {
		t.Skip("no /proc here: the controller label cannot be made")
	}
	if !ControllerAlive(ThisController()) {
		t.Fatalf("this process (%s) is not seen alive", ThisController())
	}
	parts := strings.Split(ThisController(), ":")
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{
		"",                 // an older boxtax's container
		"not-a-controller", // garbage
		fmt.Sprintf("%s:%d:%s", parts[0], cmd.Process.Pid, parts[2]), // a process that ended
		fmt.Sprintf("%s:%d:1", parts[0], os.Getpid()),                // this pid, another start: pid reuse
		fmt.Sprintf("other-boot:%d:%s", os.Getpid(), parts[2]),       // another boot
	} {
		if ControllerAlive(id) {
			t.Errorf("ControllerAlive(%q) = true", id)
		}
	}
}
