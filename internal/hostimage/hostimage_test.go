package hostimage

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// debianPackage names the package that has each program these tests use.
var debianPackage = map[string]string{
	"/usr/sbin/mosquitto":   "mosquitto",
	"/usr/sbin/nginx":       "nginx-light",
	"/usr/bin/redis-server": "redis-server",
	"/bin/ls":               "coreutils",
}

// requireProgram ends the test as testenv.Missing does when the host lacks
// the program.
func requireProgram(t *testing.T, p string) {
	t.Helper()
	testenv.RequireTool(t, p, debianPackage[p])
}

// lddPaths returns the paths ldd prints for a program.
var lddLine = regexp.MustCompile(`(?:=>\s*)?(/\S+)\s+\(0x`)

func lddPaths(t *testing.T, p string) []string {
	t.Helper()
	out, err := exec.Command("ldd", p).Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			testenv.Missing(t, "ldd is not installed here (Debian: apt-get install libc-bin)")
		}
		t.Fatalf("ldd %s: %v", p, err)
	}
	var paths []string
	for _, line := range strings.Split(string(out), "\n") {
		if m := lddLine.FindStringSubmatch(line); m != nil {
			paths = append(paths, m[1])
		}
	}
	if len(paths) < 2 {
		t.Fatalf("ldd %s printed no libraries:\n%s", p, out)
	}
	return paths
}

// TestBuildHoldsWhatLddFinds checks the set against ldd, which runs the
// real loader: every path ldd prints must be in the image (as a file or a
// symlink whose target is there too), each symlink's target included.
func TestBuildHoldsWhatLddFinds(t *testing.T) {
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/sbin/nginx", "/usr/bin/redis-server", "/bin/ls"} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			requireProgram(t, p)
			s, err := Build([]string{p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := lddPaths(t, p)
			for _, lib := range want {
				got, ok := s.Resolve(lib)
				real, err := filepath.EvalSymlinks(lib)
				if !ok || err != nil || got != real {
					t.Errorf("ldd finds %s (really %s, %v), which the image resolves to %q (%v)", lib, real, err, got, ok)
				}
			}
			checkClosed(t, s)
			for _, f := range []string{p, "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/tmp"} {
				if _, ok := s.Resolve(f); !ok {
					t.Errorf("the image lacks %s", f)
				}
			}
			sum := s.Summary()
			if len(sum.Libraries) < len(want)-2 || len(sum.Interpreters) != 1 {
				t.Errorf("summary: %d libraries, interpreters %v; ldd found %d paths", len(sum.Libraries), sum.Interpreters, len(want))
			}
			t.Logf("%s: %d files, %d symlinks, %d bytes; ldd %d paths", p, sum.Files, sum.Symlinks, sum.Bytes, len(want))
		})
	}
}

// checkClosed checks that every symlink's target and every entry's parent
// directory are in the set: nothing dangles in the image.
func checkClosed(t *testing.T, s *Set) {
	t.Helper()
	for _, e := range s.Entries() {
		if dir := filepath.Dir(e.Path); dir != "/" {
			if p := s.Entry(dir); p == nil || p.Kind != Dir {
				t.Errorf("%s: its directory %s is not a directory of the image", e.Path, dir)
			}
		}
		if e.Kind == Symlink {
			if got, ok := s.Resolve(e.Path); !ok || s.Entry(got).Kind == Symlink {
				t.Errorf("symlink %s -> %s dangles in the image", e.Path, e.Target)
			}
		}
	}
}

func TestSymlinksKept(t *testing.T) {
	requireProgram(t, "/usr/bin/redis-server")
	s, err := Build([]string{"/usr/bin/redis-server"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat("/usr/bin/redis-server")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		e := s.Entry("/usr/bin/redis-server")
		target, _ := os.Readlink("/usr/bin/redis-server")
		if e == nil || e.Kind != Symlink || e.Target != target {
			t.Errorf("/usr/bin/redis-server = %+v, want a symlink to %s as on the host", e, target)
		}
	}
	if e := s.Entry("/tmp"); e == nil || e.Kind != Dir || e.Mode != 0o777|os.ModeSticky {
		t.Errorf("/tmp = %+v, want a directory with mode 1777", e)
	}
}

func TestGeneratedAccounts(t *testing.T) {
	requireProgram(t, "/bin/ls")
	s, err := Build([]string{"/bin/ls"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	passwd := string(s.Entry("/etc/passwd").Data)
	for _, user := range []string{"root:x:0:0:", "nobody:x:65534:", "mosquitto:", "www-data:", "redis:"} {
		if !strings.Contains(passwd, "\n"+user) && !strings.HasPrefix(passwd, user) {
			t.Errorf("/etc/passwd lacks %s", user)
		}
	}
	if host, err := os.ReadFile("/etc/passwd"); err == nil && string(host) == passwd {
		t.Error("/etc/passwd is the host's")
	}
	if !strings.Contains(string(s.Entry("/etc/group").Data), "nogroup:x:65534:") {
		t.Error("/etc/group lacks nogroup")
	}
	if !strings.Contains(string(s.Entry("/etc/nsswitch.conf").Data), "passwd:         files") {
		t.Error("/etc/nsswitch.conf does not look users up in files")
	}
	if _, err := os.Stat("/usr/lib/x86_64-linux-gnu/libnss_files.so.2"); err == nil && !s.Has("/usr/lib/x86_64-linux-gnu/libnss_files.so.2") { // Debian's path
		t.Error("the image lacks libnss_files.so.2")
	}
}

// TestTarDeterministic: the same programs give the same archive, byte for
// byte, sorted, owned by root; host files keep their mode and modification
// time (gzip refused a copy with time 0: issue 27), the rest has time 0;
// another program another hash.
func TestTarDeterministic(t *testing.T) {
	requireProgram(t, "/bin/ls")
	data := filepath.Join(t.TempDir(), "data.txt")
	testenv.WriteFile(t, data, []byte("readings\n"), 0o640)
	mtime := time.Date(2024, 5, 17, 8, 30, 12, 0, time.UTC)
	if err := os.Chtimes(data, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	var archives [2]bytes.Buffer
	var s *Set
	for i := range archives {
		var err error
		s, err = Build([]string{"/bin/ls"}, Options{Files: []string{data}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.WriteTar(&archives[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(archives[0].Bytes(), archives[1].Bytes()) {
		t.Fatal("two builds of /bin/ls gave different archives")
	}
	tr := tar.NewReader(&archives[0])
	var prev string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Name <= prev {
			t.Errorf("%s comes after %s: not sorted", hdr.Name, prev)
		}
		prev = hdr.Name
		if strings.HasPrefix(hdr.Name, "/") || hdr.Uid != 0 || hdr.Gid != 0 {
			t.Errorf("%s: uid %d gid %d; want a relative name, root", hdr.Name, hdr.Uid, hdr.Gid)
		}
		switch {
		case hdr.Name == strings.TrimPrefix(data, "/"):
			if !hdr.ModTime.Equal(mtime) || hdr.Mode != 0o640 {
				t.Errorf("%s: mtime %v mode %o; want the host's, %v and 640", hdr.Name, hdr.ModTime, hdr.Mode, mtime)
			}
		case hdr.Typeflag == tar.TypeReg && s.Entry("/"+hdr.Name).Source != "":
			if fi, err := os.Stat("/" + hdr.Name); err != nil || !hdr.ModTime.Equal(fi.ModTime().Truncate(time.Second)) {
				t.Errorf("%s: mtime %v; want the host file's", hdr.Name, hdr.ModTime)
			}
		case !hdr.ModTime.Equal(epoch):
			t.Errorf("%s: mtime %v; a directory or link has time 0", hdr.Name, hdr.ModTime)
		}
		if hdr.Name == "tmp/" && hdr.Mode != 0o1777 {
			t.Errorf("tmp/ has mode %o, want 1777", hdr.Mode)
		}
	}
	a, _ := Build([]string{"/bin/ls"}, Options{})
	b, _ := Build([]string{"/bin/ls"}, Options{Files: []string{"/etc/hostname"}})
	ha, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	hb, err := b.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if ha == hb || len(ha) != 64 {
		t.Errorf("hashes %s and %s: want 64 hex digits, different for different files", ha, hb)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	script := testenv.WriteFileIn(t, dir, "script.sh", []byte("#!/bin/sh\necho hi\n"), 0o755)
	for _, tt := range []struct {
		name, program string
		want          string
	}{
		{"missing", filepath.Join(dir, "nope"), "program " + filepath.Join(dir, "nope") + " does not exist"},
		{"script", script, "program " + script + " is not an ELF executable"},
		{"directory", dir, "program " + dir + " is not an ELF executable: it is a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build([]string{tt.program}, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("missing --file", func(t *testing.T) {
		requireProgram(t, "/bin/ls")
		_, err := Build([]string{"/bin/ls"}, Options{Files: []string{filepath.Join(dir, "nope")}})
		if err == nil || !strings.Contains(err.Error(), "--file "+filepath.Join(dir, "nope")+" does not exist") {
			t.Fatalf("error = %v", err)
		}
	})
	t.Run("unresolvable library", func(t *testing.T) {
		requireProgram(t, "/bin/ls")
		// An empty loader configuration and a program whose libraries are
		// in no default directory: copy ls next to a private libc-needing
		// library name the host lacks.
		prog := elfNeeding(t, dir, "libbxnone.so.1")
		_, err := Build([]string{prog}, Options{})
		if err == nil || !strings.Contains(err.Error(), "cannot find the shared library libbxnone.so.1") ||
			!strings.Contains(err.Error(), prog) {
			t.Fatalf("error = %v, want it to name the program and the missing library", err)
		}
	})
}

// elfNeeding returns a copy of /bin/ls whose first DT_NEEDED names lib, made
// by overwriting the name in the string table (lib must not be longer).
func elfNeeding(t *testing.T, dir, lib string) string {
	t.Helper()
	data, err := os.ReadFile("/bin/ls")
	if err != nil {
		t.Fatal(err)
	}
	old := []byte("libselinux.so.1\x00")
	i := bytes.Index(data, old)
	if i < 0 || len(lib)+1 > len(old) {
		t.Skip("/bin/ls does not link libselinux.so.1 here")
	}
	copy(data[i:], append([]byte(lib), make([]byte, len(old)-len(lib))...))
	return testenv.WriteFileIn(t, dir, "needs-missing", data, 0o755)
}

func TestLdSoConf(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "ld.so.conf")
	if err := os.MkdirAll(filepath.Join(dir, "ld.so.conf.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		testenv.WriteFile(t, p, []byte(s), 0o644)
	}
	write(conf, "# comment\n/opt/a\ninclude ld.so.conf.d/*.conf\n/opt/z # trailing\nhwcap 0 nosegneg\n")
	write(filepath.Join(dir, "ld.so.conf.d", "b.conf"), "/opt/b\n")
	write(filepath.Join(dir, "ld.so.conf.d", "c.conf"), "/opt/c/\ninclude "+conf+"\n") // a loop
	got, err := readLdSoConf(conf, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "/opt/a /opt/b /opt/c /opt/z"; strings.Join(got, " ") != want {
		t.Errorf("dirs = %v, want %s", got, want)
	}
}

func TestExpandOrigin(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"$ORIGIN/../lib", "/opt/app/lib"},
		{"${ORIGIN}/lib:/usr/local/lib", "/opt/app/bin/lib /usr/local/lib"},
		{"relative/dir", ""},
	} {
		f := elfFile(t)
		got := strings.Join(expandPaths([]string{tt.in}, "/opt/app/bin", f), " ")
		if got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func elfFile(t *testing.T) *elf.File {
	t.Helper()
	requireProgram(t, "/bin/ls")
	f, err := elf.Open("/bin/ls")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestExtraFiles: a --file directory comes whole, its symlinks kept (a
// dangling one too), and ELF files in it bring their libraries.
func TestExtraFiles(t *testing.T) {
	requireProgram(t, "/bin/ls")
	dir := t.TempDir()
	for _, d := range []string{"conf/sub", "plugins"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testenv.WriteFile(t, filepath.Join(dir, "conf", "sub", "a.conf"), []byte("x"), 0o600)
	if err := os.Symlink("sub/a.conf", filepath.Join(dir, "conf", "current")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent/boxtax", filepath.Join(dir, "conf", "dangling")); err != nil {
		t.Fatal(err)
	}
	// An ELF "plugin" (a copy of ls stands in for one) needing libselinux.
	data, err := os.ReadFile("/bin/ls")
	if err != nil {
		t.Fatal(err)
	}
	testenv.WriteFile(t, filepath.Join(dir, "plugins", "p.so"), data, 0o644)
	s, err := Build([]string{"/bin/ls"}, Options{Files: []string{filepath.Join(dir, "conf"), filepath.Join(dir, "plugins", "p.so")}})
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Entry(filepath.Join(dir, "conf", "sub", "a.conf")); e == nil || e.Kind != File || e.Mode != 0o600 || e.Role != RoleExtra {
		t.Errorf("a.conf = %+v, want a file with mode 0600 from --file", e)
	}
	if e := s.Entry(filepath.Join(dir, "conf", "current")); e == nil || e.Kind != Symlink || e.Target != "sub/a.conf" {
		t.Errorf("current = %+v, want the symlink to sub/a.conf", e)
	}
	if e := s.Entry(filepath.Join(dir, "conf", "dangling")); e == nil || e.Kind != Symlink {
		t.Errorf("dangling = %+v, want the symlink kept", e)
	}
	if !s.Has(filepath.Join(dir, "plugins", "p.so")) {
		t.Error("the plugin is missing")
	}
	// nginx's modules, dlopened: where nginx is installed (its modules may
	// outlive it, so look for nginx itself).
	if _, err := exec.LookPath("/usr/sbin/nginx"); err != nil {
		testenv.DoWithout(t, "nginx is not installed (Debian: apt-get install nginx-light): its modules are not checked")
	} else if mods, err := filepath.Glob("/usr/lib/nginx/modules/*.so"); err == nil && len(mods) > 0 {
		s, err := Build([]string{"/usr/sbin/nginx"}, Options{Files: []string{"/usr/lib/nginx/modules"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			if _, ok := s.Resolve(m); !ok {
				t.Errorf("nginx module %s is missing", m)
			}
		}
	}
}

// TestFileDirSymlinksStayInside: a --file directory's symlinks are kept as
// symlinks; one leading out of the --file paths is refused, naming the
// link and its target, unless the target is given with its own --file
// (issue 15, item 7: no host file gets into the image unnamed).
func TestFileDirSymlinksStayInside(t *testing.T) {
	requireProgram(t, "/bin/ls")
	outside := t.TempDir()
	secret := testenv.WriteFileIn(t, outside, "secret", []byte("host secret"), 0o600)
	if err := os.Mkdir(filepath.Join(outside, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	mkdir := func(t *testing.T, links map[string]string) string {
		dir := t.TempDir()
		testenv.WriteFile(t, filepath.Join(dir, "a.conf"), []byte("x"), 0o644)
		for name, target := range links {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	tests := []struct {
		name    string
		links   map[string]string
		extra   []string // more --file paths
		wantErr []string
	}{
		{name: "links inside kept", links: map[string]string{"rel": "a.conf", "abs": ""}},
		{name: "link to a file outside", links: map[string]string{"leak": secret},
			wantErr: []string{"leak is a symlink to " + secret, "outside the --file paths", "add --file " + secret + " too"}},
		{name: "relative link climbing out", links: map[string]string{"up": "REL"},
			wantErr: []string{"up is a symlink to " + secret}},
		{name: "link to a directory outside", links: map[string]string{"keys": filepath.Join(outside, "keys")},
			wantErr: []string{"keys is a symlink to " + filepath.Join(outside, "keys")}},
		{name: "target named with its own --file", links: map[string]string{"leak": secret}, extra: []string{secret}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mkdir(t, nil)
			for name, target := range tt.links {
				if target == "" {
					target = filepath.Join(dir, "a.conf")
				}
				if target == "REL" {
					target, _ = filepath.Rel(dir, secret) // ../../.../secret
				}
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Build([]string{"/bin/ls"}, Options{Files: append([]string{dir}, tt.extra...)})
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("Build took the link out of %s; the image would hold %v", dir, s.Has(secret))
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q\nlacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for name, target := range tt.links {
				if target == "" {
					target = filepath.Join(dir, "a.conf")
				}
				if e := s.Entry(filepath.Join(dir, name)); e == nil || e.Kind != Symlink || e.Target != target {
					t.Errorf("%s = %+v, want a symlink to %s", name, e, target)
				}
			}
			if e := s.Entry(secret); (e != nil) != (len(tt.extra) > 0) {
				t.Errorf("secret in the image: %v, want it only when named with --file", e != nil)
			}
		})
	}
}

// TestFilesThatChangeAsRead: issue 42, 15: --file /proc/self/status
// (size 0, content made as read) ended in "archive/tar: write too long";
// it is refused with what to do, and a file that grows after the set was
// made is said to have changed; --file /dev/null says its kind in words.
func TestFilesThatChangeAsRead(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{"/proc/self/status", "whose files the kernel makes as they are read"},
		{"/dev/null", "/dev/null is a character device, not a regular file"},
	} {
		_, err := Build([]string{"/bin/ls"}, Options{Files: []string{tc.file}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--file %s: %v, want %q", tc.file, err, tc.want)
		}
	}
	log := filepath.Join(t.TempDir(), "grows.log")
	if err := os.WriteFile(log, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Build([]string{"/bin/ls"}, Options{Files: []string{log}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = s.WriteTar(io.Discard)
	if err == nil || !strings.Contains(err.Error(), log+" changed while the image was made (4 bytes when looked at, more when read)") {
		t.Errorf("a file that grew: %v", err)
	}
}
