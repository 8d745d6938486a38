package hostimage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// cc compiles C with the host's compiler; it skips without one, failing
// in CI (CI=true).
func cc(t *testing.T, dir string, args ...string) {
	t.Helper()
	gcc := testenv.RequireTool(t, "gcc", "gcc")
	cmd := exec.Command(gcc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %v: %v\n%s", args, err, out)
	}
}

// TestRpathAndRunpath builds a program whose library is found only through
// $ORIGIN, and whose library's own library is found only through the
// program's DT_RPATH (inherited) or not at all with DT_RUNPATH (which the
// loader does not inherit); ldd agrees.
func TestRpathAndRunpath(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"bin", "lib"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, src string) {
		testenv.WriteFile(t, filepath.Join(dir, name), []byte(src), 0o644)
	}
	write("bar.c", "int bar(void) { return 2; }\n")
	write("foo.c", "int bar(void);\nint foo(void) { return bar() + 1; }\n")
	write("main.c", "int foo(void);\nint main(void) { return foo() == 3 ? 0 : 1; }\n")
	cc(t, dir, "-shared", "-fPIC", "-Wl,-soname,libbar.so.1", "-o", "lib/libbar.so.1", "bar.c")
	if err := os.Symlink("libbar.so.1", filepath.Join(dir, "lib", "libbar.so")); err != nil {
		t.Fatal(err)
	}
	cc(t, dir, "-shared", "-fPIC", "-Wl,-soname,libfoo.so.1", "-o", "lib/libfoo.so.1", "foo.c", "-Llib", "-lbar")
	if err := os.Symlink("libfoo.so.1", filepath.Join(dir, "lib", "libfoo.so")); err != nil {
		t.Fatal(err)
	}
	cc(t, dir, "-o", "bin/rpath", "main.c", "-Llib", "-lfoo", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../lib")
	cc(t, dir, "-o", "bin/runpath", "main.c", "-Llib", "-lfoo", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../lib")
	// $ORIGIN is the program's real directory, also when started by a link.
	if err := os.Symlink(filepath.Join(dir, "bin", "rpath"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}

	t.Run("DT_RPATH is inherited", func(t *testing.T) {
		for _, prog := range []string{filepath.Join(dir, "bin", "rpath"), filepath.Join(dir, "link")} {
			if out, err := exec.Command(prog).CombinedOutput(); err != nil {
				t.Fatalf("%s does not run on the host: %v\n%s", prog, err, out)
			}
			s, err := Build([]string{prog}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, lib := range append(lddPaths(t, prog), filepath.Join(dir, "lib", "libbar.so.1")) {
				if _, ok := s.Resolve(lib); !ok {
					t.Errorf("%s: the image lacks %s", prog, lib)
				}
			}
			if s.Has(filepath.Join(dir, "lib", "libbar.so")) {
				t.Errorf("%s: the image holds the link-time name libbar.so, which the loader never asks for", prog)
			}
		}
	})
	t.Run("DT_RUNPATH is not inherited", func(t *testing.T) {
		prog := filepath.Join(dir, "bin", "runpath")
		out, _ := exec.Command("ldd", prog).CombinedOutput()
		if !strings.Contains(string(out), "libbar.so.1 => not found") {
			t.Skipf("this linker did not write DT_RUNPATH (ldd finds libbar):\n%s", out)
		}
		_, err := Build([]string{prog}, Options{})
		if err == nil || !strings.Contains(err.Error(), "cannot find the shared library libbar.so.1 (needed by "+filepath.Join(dir, "lib", "libfoo.so.1")+")") {
			t.Fatalf("error = %v, want libbar.so.1 not found for libfoo.so.1", err)
		}
	})
}
