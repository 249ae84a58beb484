#!/bin/sh
# No-heap rule check: the runtime's objects (kernel/, hal/soft/, port/) must not reference the C
# heap. Usage: check_no_heap.sh BOARD...  Reads build/<board>/obj (or $O_PREFIX/<board>/obj, as
# tools/test_all.sh builds); boards not built are skipped. Prints each offending object and
# symbol; exit status 1 if there is any.
set -u
# Heap entry points of C and POSIX (strdup/strndup/asprintf allocate too), and what sanitizers
# or fortify builds rename them to.
forbidden='malloc calloc realloc reallocarray free strdup strndup aligned_alloc posix_memalign memalign valloc pvalloc asprintf vasprintf __libc_malloc __libc_calloc __libc_realloc __libc_free __strdup'
status=0
checked=0
for board in "$@"; do
    obj=${O_PREFIX:+$O_PREFIX/$board/obj}
    obj=${obj:-build/$board/obj}
    if [ ! -d "$obj" ]; then
        echo "check_no_heap: board $board not built ($obj missing), skipped"
        continue
    fi
    # The board's own binutils (CROSS from its board.mk), so every object format is read right.
    cross=$(sed -n 's/^CROSS *[:?]*= *//p' "boards/$board/board.mk" 2>/dev/null | head -n 1)
    nm_tool=${cross}nm
    files=$(find "$obj/kernel" "$obj/hal/soft" "$obj/port" -name '*.o' 2>/dev/null | sort)
    n=0; bad=0
    for o in $files; do
        n=$((n + 1))
        for sym in $("$nm_tool" -u "$o" | awk '{ print $NF }'); do
            for f in $forbidden; do
                if [ "$sym" = "$f" ]; then
                    echo "check_no_heap: $o references $sym"
                    bad=$((bad + 1))
                fi
            done
        done
    done
    echo "check_no_heap: board $board: $n runtime objects, $bad heap reference(s)"
    checked=$((checked + n))
    [ "$bad" -eq 0 ] || status=1
done
[ "$checked" -gt 0 ] || echo "check_no_heap: nothing checked (no board built)"
exit $status
