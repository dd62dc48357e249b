#!/usr/bin/env python3
"""wasm_sizes.py — where the page's module bytes are: each section's size raw and gzip -9, the biggest functions,
and code by library (ImGui, nlohmann-json, Eigen, zlib, the trainer, the exercises, iostream/locale, ...).
Function names come from a name section, so link once with --profiling-funcs, e.g. rerun the link line of
`ninja -t commands attnplay_web | tail -1` with `--profiling-funcs -o /tmp/prof/attnplay.js`; or pass the
--emit-symbol-map file as the second argument.

    python3 scripts/wasm_sizes.py /tmp/prof/attnplay.wasm [SYMBOL_MAP|-] [TOP=40]"""
import collections
import re
import subprocess
import sys
import zlib

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1
        r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

def parse(path):
    b = open(path, 'rb').read()
    i = 8; secs = []; names = {}; nimports = 0; bodies = []
    while i < len(b):
        sid = b[i]; i += 1
        size, i = leb(b, i); start = i; end = i + size
        name = ''
        if sid == 0:
            nl, j = leb(b, i); name = b[j:j+nl].decode()
            if name == 'name':
                k = j + nl
                while k < end:
                    sub = b[k]; k += 1
                    ss, k = leb(b, k); se = k + ss
                    if sub == 1:
                        cnt, k2 = leb(b, k)
                        for _ in range(cnt):
                            idx, k2 = leb(b, k2); l, k2 = leb(b, k2)
                            names[idx] = b[k2:k2+l].decode('utf-8', 'replace'); k2 += l
                    k = se
        if sid == 2:
            cnt, j = leb(b, i)
            for _ in range(cnt):
                l, j = leb(b, j); j += l; l, j = leb(b, j); j += l
                kind = b[j]; j += 1
                if kind == 0: _, j = leb(b, j); nimports += 1
                elif kind == 1: j += 1; fl, j = leb(b, j); _, j = leb(b, j); 
                elif kind == 2: fl, j = leb(b, j); _, j = leb(b, j)
                elif kind == 3: j += 2
                elif kind == 4: j += 1; _, j = leb(b, j)
        if sid == 10:
            cnt, j = leb(b, i)
            for _ in range(cnt):
                l, j = leb(b, j); bodies.append((j, l)); j += l
        secs.append((sid, name, size, b[start:end]))
        i = end
    return b, secs, names, nimports, bodies

def main():
    path = sys.argv[1]
    symmap = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] not in ('', '-') else None
    b, secs, names, nimports, bodies = parse(path)
    if symmap:
        for line in open(symmap):
            k, v = line.rstrip('\n').split(':', 1); names[int(k)] = v
    print('sections:')
    for sid, name, size, data in secs:
        print(f'  {sid:2d} {name:20s} {size/1024:8.1f} KiB  gz {len(zlib.compress(data, 9))/1024:7.1f} KiB')
    funcs = []
    for n, (off, l) in enumerate(bodies):
        idx = nimports + n
        nm = names.get(idx, f'f{idx}')
        funcs.append((l, nm, len(zlib.compress(b[off:off+l], 9))))
    raw = [f[1] for f in funcs]
    dem = subprocess.run(['c++filt'], input='\n'.join(raw), capture_output=True, text=True).stdout.split('\n')
    funcs = [(l, dem[k] if k < len(dem) else nm, g) for k, (l, nm, g) in enumerate(funcs)]
    funcs.sort(reverse=True)
    print(f'functions: {len(funcs)}, total {sum(f[0] for f in funcs)/1024:.1f} KiB')
    for l, nm, g in funcs[:int(sys.argv[3]) if len(sys.argv) > 3 else 40]:
        print(f'  {l/1024:7.1f} KiB  {nm[:150]}')
    groups = collections.Counter(); counts = collections.Counter()
    rules = [('nlohmann', r'nlohmann'), ('ImGui', r'ImGui|ImDraw|ImFont|Im[A-Z]\w*|stb|imgui'),
             ('Eigen', r'Eigen::'), ('zlib', r'^(deflate|inflate|tr_|_tr_|compress|crc32|adler32|longest_match|fill_window|build_tree|send_tree|zcalloc|inflate_fast|updatewindow|gen_|scan_tree|pqdownheap|compress_block|deflate_|lm_init)'),
             ('train', r'attn::train'), ('exercise', r'attn::exercise'), ('core attention', r'attn::(kernels|compute|softmax|masks|ProgressiveCompute|Scenario|stats|positional|heads)'),
             ('attn::ui', r'attn::ui::'), ('attn other', r'attn::'), ('std::regex', r'regex'),
             ('iostream/locale', r'locale|ios_base|basic_ostream|basic_istream|basic_streambuf|num_put|num_get|ctype|codecvt|stringbuf|basic_ios'),
             ('std::string/containers', r'std::__2::(basic_string|vector|__tree|map|unordered|__hash|deque|function|__function)'),
             ('libc/printf/malloc', r'printf|scanf|strto|dlmalloc|malloc|free|memcpy|memset|fmt_|pop_arg|__'),
             ]
    for l, nm, g in funcs:
        for gname, rx in rules:
            if re.search(rx, nm):
                groups[gname] += l; counts[gname] += 1; break
        else:
            groups['other'] += l; counts['other'] += 1
    print('by group (raw KiB, functions):')
    for gname, l in groups.most_common():
        print(f'  {gname:25s} {l/1024:8.1f} KiB  {counts[gname]}')
if __name__ == '__main__':
    main()
