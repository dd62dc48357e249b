# package_file.sh — `attnplay package --lesson FILE.json`: a teacher's own lesson file goes into the course package
# (checked first, as `attnplay lesson check` does), its SCO launches the page with ?lesson-url= naming the copy inside
# the zip, and a built-in lesson beside it keeps its own launch; a malformed file is refused with the validator's
# message and no zip is written. A pass mark the file names is the package's unless --pass gives another.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"

SITE="$TMP/site"
stub_site "$SITE"

cat >"$TMP/my-lesson.json" <<'JSON'
{"id": "teacher-pack", "title": {"en": "My own lesson"},
 "steps": [
  {"text": {"en": "Look at the weights."}, "state": {"preset": "default", "d_k": 8}, "panels": ["controls", "heatmap"]},
  {"text": {"en": "Predict."}, "state": {"temperature": 0.5},
   "task": {"kind": "predict", "id": "q2", "question": {"en": "Peakier?"}, "asks": [],
            "choices": [{"en": "Yes"}, {"en": "No"}], "answer": 0, "feedback": ["", {"en": "Cooler is peakier."}]}}]}
JSON

for v in 1.2 2004; do
  if expect_ok "package a lesson file, SCORM $v" "$BIN" package --lesson "$TMP/my-lesson.json,softmax" --scorm "$v" \
    --site "$SITE" --out "$TMP/file-$v.zip"; then
    if python3 - "$TMP/file-$v.zip" "$TMP/my-lesson.json" 2>"$TMP/pyerr" <<'PY'
import json, sys, zipfile, xml.etree.ElementTree as ET
path, lesson = sys.argv[1:3]
z = zipfile.ZipFile(path)
assert z.testzip() is None
names = set(z.namelist())
assert "lessons/teacher-pack.json" in names, sorted(names)
assert json.loads(z.read("lessons/teacher-pack.json")) == json.load(open(lesson)), "the file inside differs"
m = z.read("imsmanifest.xml").decode()
root = ET.fromstring(m)
hrefs = [r.get("href") for r in root.iter() if r.tag.endswith("resource") and r.get("href")]
assert "index.html?lesson-url=lessons%2Fteacher-pack.json&lms=1" in hrefs, hrefs
assert "index.html?lesson=softmax&lms=1" in hrefs, hrefs
assert "<title>My own lesson</title>" in m, "the item is not titled with the file's title"
files = [f.get("href") for f in root.iter() if f.tag.endswith("}file")]
assert "lessons/teacher-pack.json" in files, files
PY
    then pass "SCORM $v: the lesson file is inside and its SCO opens it"
    else fail "SCORM $v: the lesson file is inside and its SCO opens it" "$(tail -c 600 "$TMP/pyerr")"; fi
  fi
done

# A lesson file's own pass mark ("pass", as the builder writes it) is the package's unless --pass says another.
sed 's/"id": "teacher-pack",/"id": "teacher-pack", "pass": 0.6,/' "$TMP/my-lesson.json" >"$TMP/pass.json"
for given in "" "--pass 0.9"; do
  want=$([ -z "$given" ] && echo 60 || echo 90)
  # shellcheck disable=SC2086
  if expect_ok "package a lesson file with a pass mark ${given:-(none given)}" "$BIN" package --lesson "$TMP/pass.json"     --scorm 1.2 --site "$SITE" --out "$TMP/pass.zip" $given; then
    if unzip -p "$TMP/pass.zip" imsmanifest.xml | grep -q "<adlcp:masteryscore>$want</adlcp:masteryscore>"; then
      pass "mastery score $want ${given:-from the lesson file}"
    else fail "mastery score $want ${given:-from the lesson file}" "$(unzip -p "$TMP/pass.zip" imsmanifest.xml | grep mastery)"; fi
  fi
done

sed 's/"answer": 0/"answer": 5/' "$TMP/my-lesson.json" >"$TMP/bad.json"
rm -f "$TMP/bad.zip"
expect_error "a malformed lesson file" 1 "answer 5 is out of range" "$BIN" package --lesson "$TMP/bad.json" --scorm 1.2 \
  --site "$SITE" --out "$TMP/bad.zip"
if [ -e "$TMP/bad.zip" ]; then fail "no zip for a refused lesson" "bad.zip was written"; else pass "no zip for a refused lesson"; fi
expect_error "a lesson file that is not there" 1 "cannot read the lesson file" "$BIN" package --lesson "$TMP/none.json" \
  --scorm 2004 --site "$SITE" --out "$TMP/x.zip"
finish
