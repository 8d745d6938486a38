// Command fakeworker stands in for the boxtax worker in the Docker
// integration tests: a tiny static binary whose behaviour the arguments choose.
//
//	fakeworker lines N   print "line 1".."line N" on stdout and "to stderr" on stderr
//	fakeworker exit N    exit with code N
//	fakeworker sleep D   sleep for the duration D, e.g. 60s
//	fakeworker caps      print the effective capabilities (CapEff, hex)
//	fakeworker tmp       write and read back a file in the temporary directory
//	fakeworker limits    print the hard limits: "nofile N nproc M"
//	fakeworker exec P A  run program P with arguments A, passing its output and exit code
//	fakeworker cat F...  print the files F, each line prefixed with its file's name and ": "
//	fakeworker fstype D  print the filesystem type of directory D (statfs magic, hex)
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: fakeworker lines N | exit N | sleep D | caps | tmp")
	}
	arg := ""
	if len(os.Args) > 2 {
		arg = os.Args[2]
	}
	switch os.Args[1] {
	case "lines":
		n, _ := strconv.Atoi(arg)
		for i := 1; i <= n; i++ {
			fmt.Printf("line %d\n", i)
		}
		fmt.Fprintln(os.Stderr, "to stderr")
	case "exit":
		code, _ := strconv.Atoi(arg)
		os.Exit(code)
	case "sleep":
		d, err := time.ParseDuration(arg)
		if err != nil {
			fail(err.Error())
		}
		fmt.Println("sleeping")
		time.Sleep(d)
	case "caps":
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			fail(err.Error())
		}
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "CapEff:"); ok {
				fmt.Println(strings.TrimSpace(v))
			}
		}
	case "tmp":
		p := filepath.Join(os.TempDir(), "fakeworker")
		if err := os.WriteFile(p, []byte("ok\n"), 0o644); err != nil {
			fail(err.Error())
		}
		b, err := os.ReadFile(p)
		if err != nil {
			fail(err.Error())
		}
		fmt.Print(string(b))
	case "limits":
		b, err := os.ReadFile("/proc/self/limits")
		if err != nil {
			fail(err.Error())
		}
		var nofile, nproc string
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			switch {
			case strings.HasPrefix(l, "Max open files") && len(f) >= 5:
				nofile = f[4]
			case strings.HasPrefix(l, "Max processes") && len(f) >= 4:
				nproc = f[3]
			}
		}
		fmt.Printf("nofile %s nproc %s\n", nofile, nproc)
	case "exec":
		cmd := exec.Command(arg, os.Args[3:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				os.Exit(ee.ExitCode())
			}
			fail(err.Error())
		}
	case "cat":
		for _, f := range os.Args[2:] {
			b, err := os.ReadFile(f)
			if err != nil {
				fmt.Printf("%s: %v\n", f, err)
				continue
			}
			for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
				fmt.Printf("%s: %s\n", f, l)
			}
		}
	case "fstype":
		var st syscall.Statfs_t
		if err := syscall.Statfs(arg, &st); err != nil {
			fail(err.Error())
		}
		fmt.Printf("%x\n", st.Type)
	default:
		fail("unknown command " + os.Args[1])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "fakeworker:", msg)
	os.Exit(2)
}
