# package.sh — `attnplay package` writes a course package an LMS imports: a zip whose CRCs check, holding the page's
# files as given in --site, the lessons' JSON and an imsmanifest.xml valid for the SCORM version asked for (XML that
# parses; SCORM 1.2: the imscp_rootv1p1p2 and adlcp_rootv1p2 namespaces, adlcp:scormtype="sco", masteryscore;
# 2004 4th edition: its schemaversion, the imscp_v1p1/adlcp_v1p3/imsss namespaces, adlcp:scormType="sco",
# minNormalizedMeasure), one SCO per lesson launching index.html?lesson=ID&lms=1, every <file> in the zip; and
# clear errors for what it cannot do.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"

SITE="$TMP/site"
stub_site "$SITE"

for v in 1.2 2004; do
  if expect_ok "package SCORM $v" "$BIN" package --lesson why-attention,softmax --scorm "$v" --site "$SITE" \
    --out "$TMP/course-$v.zip" --pass 0.75 --xapi-endpoint https://lrs.example.org/xapi/; then
    if command -v xmllint >/dev/null; then
      if unzip -p "$TMP/course-$v.zip" imsmanifest.xml | xmllint --noout - 2>"$TMP/xmlerr"; then
        pass "SCORM $v: xmllint parses the manifest"
      else fail "SCORM $v: xmllint parses the manifest" "$(head -c 400 "$TMP/xmlerr")"; fi
    fi
    if python3 - "$TMP/course-$v.zip" "$v" "$SITE" 2>"$TMP/pyerr" <<'PY'
import json, os, sys, zipfile, xml.etree.ElementTree as ET
path, version, site = sys.argv[1:4]
z = zipfile.ZipFile(path)
assert z.testzip() is None, "a CRC does not match"
names = set(z.namelist())
listed = [f["path"] for f in json.load(open(os.path.join(site, "site-manifest.json")))["files"]] + ["site-manifest.json"]
for root, _, files in os.walk(site):
    for f in files:
        rel = os.path.relpath(os.path.join(root, f), site)
        assert rel in listed, rel + " is in the site but not in its site-manifest.json"
for f in listed:
    assert f in names, f + " is not in the package"
    if f != "index.html":
        assert z.read(f) == open(os.path.join(site, f), "rb").read(), f + " differs from the site's copy"
assert z.getinfo("attnplay.wasm").compress_type in (0, 8)
assert any(n.startswith("lessons/") and n.endswith("why-attention.json") for n in names), sorted(names)
html = z.read("index.html").decode()
assert "connect-src 'self' https://lrs.example.org" in html, "the LRS is not allowed by the page's CSP: " + html
root = ET.fromstring(z.read("imsmanifest.xml"))
CP = {"1.2": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "2004": "http://www.imsglobal.org/xsd/imscp_v1p1"}[version]
ADL = {"1.2": "http://www.adlnet.org/xsd/adlcp_rootv1p2", "2004": "http://www.adlnet.org/xsd/adlcp_v1p3"}[version]
SS = "http://www.imsglobal.org/xsd/imsss"
assert root.tag == "{%s}manifest" % CP, root.tag
sv = root.find("{%s}metadata/{%s}schemaversion" % (CP, CP)).text
assert sv == {"1.2": "1.2", "2004": "2004 4th Edition"}[version], sv
orgs = root.find("{%s}organizations" % CP)
org = orgs.find("{%s}organization" % CP)
assert orgs.get("default") == org.get("identifier")
items = org.findall("{%s}item" % CP)
assert [i.get("identifier") for i in items] == ["item-why-attention", "item-softmax"], [i.get("identifier") for i in items]
res = {r.get("identifier"): r for r in root.find("{%s}resources" % CP)}
attr = "{%s}%s" % (ADL, "scormtype" if version == "1.2" else "scormType")
for item, lesson in zip(items, ["why-attention", "softmax"]):
    r = res[item.get("identifierref")]
    assert r.get(attr) == "sco", r.attrib
    assert r.get("href") == "index.html?lesson=%s&lms=1&xapi-endpoint=https%%3A%%2F%%2Flrs.example.org%%2Fxapi%%2F" % lesson, r.get("href")
    if version == "1.2":
        assert item.find("{%s}masteryscore" % ADL).text == "75"
    else:
        m = item.find("{%s}sequencing/{%s}objectives/{%s}primaryObjective/{%s}minNormalizedMeasure" % (SS, SS, SS, SS))
        assert m is not None and m.text == "0.75"
    dep = r.find("{%s}dependency" % CP).get("identifierref")
    assert res[dep].get(attr) == "asset"
for r in res.values():
    for f in r.findall("{%s}file" % CP):
        assert f.get("href") in names, f.get("href") + " is listed but not in the zip"
PY
    then pass "SCORM $v: zip, files and manifest"
    else fail "SCORM $v: zip, files and manifest" "$(tail -c 600 "$TMP/pyerr")"; fi
  fi
done

expect_error "an unknown lesson" 1 "unknown lesson" "$BIN" package --lesson nope --scorm 1.2 --site "$SITE" --out "$TMP/x.zip"
expect_error "a SCORM version that does not exist" 2 "--scorm 1.2 or --scorm 2004" "$BIN" package --lesson softmax --scorm 3 --out "$TMP/x.zip"
expect_error "no --out" 2 "--out" "$BIN" package --lesson softmax --scorm 2004
# The real page, when it is built: every file the build produced (but the example course pages) is listed in its
# site-manifest.json and is in the package — the list a package, the service worker and the Python package share.
REAL_SITE="$DIR/../../build/web"
if [ -f "$REAL_SITE/site-manifest.json" ]; then
  if expect_ok "package the built page" "$BIN" package --lesson masks --scorm 2004 --site "$REAL_SITE" --out "$TMP/real.zip"; then
    if python3 - "$TMP/real.zip" "$REAL_SITE" 2>"$TMP/pyerr" <<'PY'
import json, os, sys, zipfile
zpath, site = sys.argv[1:3]
names = set(zipfile.ZipFile(zpath).namelist())
manifest = json.load(open(os.path.join(site, "site-manifest.json")))
listed = {f["path"] for f in manifest["files"]}
for root, dirs, files in os.walk(site):
    dirs[:] = [d for d in dirs if os.path.relpath(os.path.join(root, d), site) != "examples"]
    for f in files:
        rel = os.path.relpath(os.path.join(root, f), site)
        if rel == "site-manifest.json":
            continue
        assert rel in listed, rel + " was built but is not in site-manifest.json"
        assert rel in names, rel + " was built but is not in the package"
for panels in ("strings/en.panels.json", "strings/hi-Latn.panels.json"):
    assert panels in names, panels + " (closed panels' texts) is not in the package"
sw = open(os.path.join(site, "attnplay-sw.js")).read()
assert manifest["build"] in sw, "the service worker is not stamped with the build id " + manifest["build"]
PY
    then pass "the built page's every file is listed and packaged; the service worker carries the build id"
    else fail "the built page's every file is listed and packaged; the service worker carries the build id" "$(cat "$TMP/pyerr")"; fi
  fi
fi

# A site whose list names a file it does not hold is refused, naming the file.
cp -r "$SITE" "$TMP/short-site" && rm "$TMP/short-site/strings/en.panels.json"
expect_error "a listed file missing" 1 "strings/en.panels.json is missing" "$BIN" package --lesson softmax --scorm 2004 \
  --site "$TMP/short-site" --out "$TMP/x.zip"

# The largest lesson a file allows, its record at its longest (64 numeric predictions, 64-character ids): its SCORM 1.2
# record (attnplay-lms.js's format 2, every answer a number at its longest) still fits 4096 characters, so it packages.
python3 - "$TMP/big-numbers.json" <<'PY'
import json, sys
pad = lambda s: (s + "-" + "x" * 64)[:64]
t = lambda en: {"en": en, "hi-Latn": en}
steps = [{"id": pad("s%d" % i), "text": t("Step %d." % (i + 1)), "state": {"preset": "default", "d_k": 4, "scale": True},
          "panels": ["controls"],
          "task": {"kind": "predict", "id": pad("q%d" % i), "question": t("How many keys does each query see?"),
                   "asks": ["dk_sweep"], "number": 4, "tolerance": 0.5, "hint": t("Count them."),
                   "reveal": {"d_k": 4}, "explain": t("Four.")}} for i in range(64)]
json.dump({"id": pad("big-numbers"), "title": t("Sixty-four numbers"), "summary": t("The longest record."), "steps": steps},
          open(sys.argv[1], "w"))
record = {"v": 2, "l": pad("big-numbers"), "s": 64, "d": False, "a": [[i, i, -2.2250738585072014e-308, 11] for i in range(64)]}
assert len(json.dumps(record, separators=(",", ":"))) <= 4096
PY
[ -f "$TMP/big-numbers.json" ] || fail "the largest lesson's file was written"
if expect_ok "SCORM 1.2: the largest lesson's record fits suspend_data" "$BIN" package --lesson "$TMP/big-numbers.json" \
  --scorm 1.2 --site "$SITE" --out "$TMP/big.zip"; then
  pass "SCORM 1.2: the largest lesson's record fits suspend_data"
fi

expect_error "a site without the page" 1 "build the web page first" "$BIN" package --lesson softmax --scorm 2004 --site "$TMP/none" --out "$TMP/x.zip"
expect_error "a passing share above 1" 2 "--pass" "$BIN" package --lesson softmax --scorm 2004 --pass 80 --out "$TMP/x.zip"
finish
