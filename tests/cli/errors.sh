# errors.sh — every class of invalid input ends as exit 1, empty stdout and one "error: …" line.
set -u
BIN=$1
DIR=$2
CASES=$DIR/cases
source "$DIR/helpers.bash"

# fixture | phrase expected in the message
while IFS='|' read -r file phrase; do
  [ -z "$file" ] && continue
  expect_error "$file" 1 "$phrase" "$BIN" compute "$CASES/$file"
done <<'TABLE'
err_empty.json|malformed JSON
err_malformed.json|malformed JSON
err_nan.json|malformed JSON
err_infinity.json|malformed JSON
err_overflow.json|X[0][2] overflows float
err_ragged.json|Q is ragged
err_empty_matrix.json|Q is an empty matrix
err_vector.json|not a single vector
err_wrong_type.json|Q[0][1] must be a number
err_unknown_key.json|unknown key "temprature"
err_not_object.json|must be a JSON object
err_unknown_score.json|unknown score "cosine"
err_unknown_mask.json|unknown mask "future"
err_negative_temperature.json|temperature must be >= 0
err_heads_zero.json|heads must be >= 1
err_shape_mismatch.json|Q has 3 columns but K has 4 columns
err_padding_length.json|key_padding has 3 entries
err_heads_divide.json|heads = 2 does not divide d_k = 3
err_missing_w_a.json|score 'general' needs W_a
err_missing_additive.json|score 'additive' needs W_a, U_a and v_a
err_missing_inputs.json|missing inputs
TABLE

# Large or hostile inputs are made here rather than committed.
GEN=$TMP/gen
mkdir -p "$GEN"
depth=100000
{ printf '%*s' "$depth" '' | tr ' ' '['; printf '%*s' "$depth" '' | tr ' ' ']'; } >"$GEN/deep.json"
expect_error "deep nesting (100000 levels)" 1 "nesting" "$BIN" compute "$GEN/deep.json"
{ printf '{"Q": '; printf '%*s' 17 '' | tr ' ' '['; printf '%*s' 17 '' | tr ' ' ']'; printf '}'; } >"$GEN/deep17.json"
expect_error "nesting one level over the limit" 1 "nesting" "$BIN" compute "$GEN/deep17.json"
head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$GEN/oversized.json"
expect_error "input over 64 MiB" 1 "limit" "$BIN" compute "$GEN/oversized.json"
expect_error "input over 64 MiB on stdin" 1 "limit" sh -c "\"\$0\" compute - <\"\$1\"" "$BIN" "$GEN/oversized.json"
{ printf '{"X": ['; for i in $(seq 4097); do printf '[0],'; done; printf '[0]]}'; } >"$GEN/rows.json"
expect_error "too many rows" 1 "over the limit of 4096" "$BIN" compute "$GEN/rows.json"
{ printf '{"Q": [['; printf '0,%.0s' $(seq 4097); printf '0]], "K": [[0]], "V": [[0]]}'; } >"$GEN/cols.json"
expect_error "too many columns" 1 "over the limit of 4096" "$BIN" compute "$GEN/cols.json"
{ printf '{"Q": [[1]], "K": [[1]], "V": [[1]], "tokens": ["'; printf '%*s' 300 '' | tr ' ' 'a'; printf '"]}'; } >"$GEN/token.json"
expect_error "token longer than 256 bytes" 1 "over the limit of 256" "$BIN" compute "$GEN/token.json"
printf '{"Q": [[1e400]], "K": [[1]], "V": [[1]]}' >"$GEN/double_overflow.json"
expect_error "number beyond double" 1 "overflow" "$BIN" compute "$GEN/double_overflow.json"
printf '{"Q": [[1, 2]], "K": [[1, 2]], "V": [[1]], "tokens": ["\xff\xfe"]}' >"$GEN/bad_utf8.json"
expect_error "invalid UTF-8" 1 "malformed JSON" "$BIN" compute "$GEN/bad_utf8.json"

# Files that can't be read.
expect_error "missing file" 1 "cannot open" "$BIN" compute "$GEN/does-not-exist.json"
expect_error "directory instead of file" 1 "cannot read" "$BIN" compute "$GEN"
expect_error "malformed JSON on stdin" 1 "malformed JSON" sh -c "\"\$0\" compute - <\"\$1\"" "$BIN" "$CASES/err_malformed.json"

finish
