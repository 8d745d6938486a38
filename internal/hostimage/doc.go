// Package hostimage computes the files a container needs to run programs of
// the host exactly as they run on the host, and writes them as a
// deterministic tar archive for a FROM scratch image.
//
// For each executable it takes the program itself, its ELF interpreter
// (PT_INTERP) and every shared library it links (DT_NEEDED), resolved
// recursively as the dynamic loader does: DT_RPATH and DT_RUNPATH with
// $ORIGIN, the directories of /etc/ld.so.conf and the default multiarch
// directories. Every symlink on the way (/lib -> usr/lib, libc.so.6 ->
// libc-2.36.so, /usr/bin/redis-server -> redis-check-rdb) is kept as a
// symlink and its target included, so each file is found in the image at
// the path the host has. It adds what programs use at run time without
// linking it: /etc/nsswitch.conf with the NSS files module, a small
// generated /etc/passwd and /etc/group (root, nobody and the usual service
// users, never the host's own files) and an empty /tmp. Libraries a program
// opens with dlopen and its configuration files are the caller's to add.
//
// The same files give the same archive, byte for byte (sorted entries, root
// ownership, host files with their own mode and modification time, the rest
// at time 0), so a content hash names the image.
package hostimage
