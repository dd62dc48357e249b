// train_state.cpp — a Trainer's whole run as versioned little-endian bytes, and loading them back with every field
// checked.
//
// Layout (version 2): "ATTNTRN" 0, u32 version, u32 settings length + the settings (write_settings: every
// field of TrainSettings in declaration order, binary, so the worker's module needs no JSON code), i64 steps, u8
// stopped, str message, u8 stop model (255 = none), u8 stop on the gradient, u8 stop on NaN (version 1 has none of
// these three), the batch generator (u64, u8, f64), per model: f32 vector parameters, i64 t, f64 β₁ᵗ, f64 β₂ᵗ,
// f32 vectors m and v; then i64 curve_from, u64 records, per model records × 7 f64. str = u32 length + bytes; vector =
// u64 count + items. Nothing may follow.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/train/train_trainer.h"

namespace attn::train {

namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'T', 'R', 'N', 0};
constexpr size_t kMaxMessageBytes = 4096;
constexpr int kRecordFields = 7;

double StepRecord::*const kRecordField[kRecordFields] = {
    &StepRecord::loss,          &StepRecord::accuracy,        &StepRecord::sequence_accuracy,
    &StepRecord::jacobian_norm, &StepRecord::logit_grad_norm, &StepRecord::entropy,
    &StepRecord::grad_norm};

// The bytes are little-endian everywhere; on such a host (x86, wasm, ARM) float vectors are copied whole.
bool little_endian() {
  const uint32_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { little(v, 4); }
  void u64(uint64_t v) { little(v, 8); }
  void i64(long long v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  void floats(const std::vector<float>& v) {
    u64(v.size());
    if (little_endian()) {
      if (!v.empty()) out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
      return;
    }
    for (const float x : v) {
      uint32_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      u32(bits);
    }
  }
  void raw(const char* p, size_t n) { out_.append(p, n); }
  std::string take() { return std::move(out_); }
  void reserve(size_t n) { out_.reserve(n); }

 private:
  void little(uint64_t v, int bytes) {
    char b[8];
    for (int i = 0; i < bytes; ++i) b[i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
    out_.append(b, static_cast<size_t>(bytes));
  }
  std::string out_;
};

// Every read checks what is left first, so short or damaged bytes fail cleanly (ok() turns false and
// stays false) and no count read from the input allocates more than the input could hold.
class ByteReader {
 public:
  explicit ByteReader(const std::string& in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }
  bool has(size_t n) {
    if (ok_ && in_.size() - pos_ >= n) return true;
    ok_ = false;
    return false;
  }
  uint8_t u8() { return has(1) ? static_cast<uint8_t>(in_[pos_++]) : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    if (!has(4)) return 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(in_[pos_++])) << (8 * i);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    if (!has(8)) return 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(in_[pos_++])) << (8 * i);
    return v;
  }
  long long i64() { return static_cast<long long>(u64()); }
  double f64() {
    const uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string str(size_t max_bytes) {
    const uint32_t n = u32();
    if (n > max_bytes || !has(n)) {
      ok_ = false;
      return "";
    }
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::vector<float> floats() {
    const uint64_t n = u64();
    std::vector<float> v;
    if (!ok_ || n > (in_.size() - pos_) / 4) {
      ok_ = false;
      return v;
    }
    v.resize(static_cast<size_t>(n));
    if (little_endian()) {
      if (v.empty()) return v;  // memcpy from or to no storage is undefined even for 0 bytes
      std::memcpy(v.data(), in_.data() + pos_, v.size() * sizeof(float));
      pos_ += v.size() * sizeof(float);
      return v;
    }
    for (float& x : v) {
      const uint32_t bits = u32();
      std::memcpy(&x, &bits, sizeof x);
    }
    return v;
  }
  bool magic() { return has(sizeof kMagic) && std::memcmp(in_.data() + pos_, kMagic, sizeof kMagic) == 0 && skip(8); }

 private:
  bool skip(size_t n) {
    pos_ += n;
    return true;
  }
  const std::string& in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// One model's part of a saved state, read but not yet adopted.
struct SavedModel {
  std::vector<float> parameters;
  Optimizer<float>::State optim;
};

void write_model(ByteWriter& w, const std::vector<float>& parameters, const Optimizer<float>::State& o) {
  w.floats(parameters);
  w.i64(o.t);
  w.f64(o.beta1_power);
  w.f64(o.beta2_power);
  w.floats(o.m);
  w.floats(o.v);
}

SavedModel read_model(ByteReader& r) {
  SavedModel m;
  m.parameters = r.floats();
  m.optim.t = static_cast<long>(r.i64());
  m.optim.beta1_power = r.f64();
  m.optim.beta2_power = r.f64();
  m.optim.m = r.floats();
  m.optim.v = r.floats();
  return m;
}

// Every field of TrainSettings, in declaration order; enums and flags as u8, counts as i64, reals as f64.
void write_settings(ByteWriter& w, const TrainSettings& s) {
  const ModelSettings& m = s.model;
  const OptimSettings& o = s.optim;
  w.u8(static_cast<uint8_t>(s.task));
  for (const long long v :
       {static_cast<long long>(s.batch), static_cast<long long>(s.seed), static_cast<long long>(s.steps)})
    w.i64(v);
  for (const int v : {m.vocab, m.seq_len, m.d_model, m.layers, m.heads, m.d_k, m.d_v}) w.i64(v);
  w.u8(m.scale ? 1 : 0);
  w.f64(m.temperature);
  for (const int v : {m.causal ? 1 : 0, static_cast<int>(m.positional), m.norm ? 1 : 0, m.mlp ? 1 : 0})
    w.u8(static_cast<uint8_t>(v));
  w.i64(m.d_mlp);
  w.u8(static_cast<uint8_t>(m.init));
  w.u8(static_cast<uint8_t>(o.kind));
  for (const double v : {o.learning_rate, o.beta1, o.beta2, o.epsilon, o.clip}) w.f64(v);
  w.u8(static_cast<uint8_t>(s.vary));
  w.u8(s.b_scale ? 1 : 0);
  w.i64(s.b_d_k);
  w.f64(s.b_temperature);
  w.i64(s.b_heads);
  w.u8(static_cast<uint8_t>(s.b_init));
}

std::string settings_bytes(const TrainSettings& s) {
  ByteWriter w;
  write_settings(w, s);
  return w.take();
}

// Reads what write_settings wrote; false when a field is out of its type's range (validate() judges the rest).
bool read_settings(ByteReader& r, TrainSettings& s) {
  bool ok = true;
  const auto small = [&](long long lo, long long hi) {
    const long long v = r.i64();
    ok = ok && v >= lo && v <= hi;
    return static_cast<int>(ok ? v : lo);
  };
  const auto choice = [&](int count) {
    const uint8_t v = r.u8();
    ok = ok && v < count;
    return ok ? v : 0;
  };
  ModelSettings& m = s.model;
  OptimSettings& o = s.optim;
  s.task = static_cast<TaskKind>(choice(5));
  s.batch = small(0, kMaxBatch);
  const long long seed = r.i64();
  ok = ok && seed >= 0 && static_cast<uint64_t>(seed) <= kMaxSeed;
  s.seed = static_cast<uint64_t>(seed);
  const long long steps = r.i64();
  ok = ok && steps >= 1 && steps <= kMaxSteps;
  s.steps = static_cast<long>(steps);
  for (int* v : {&m.vocab, &m.seq_len, &m.d_model, &m.layers, &m.heads, &m.d_k, &m.d_v}) *v = small(0, 1 << 20);
  m.scale = choice(2) == 1;
  m.temperature = r.f64();
  m.causal = choice(2) == 1;
  m.positional = static_cast<PositionalKind>(choice(2));
  m.norm = choice(2) == 1;
  m.mlp = choice(2) == 1;
  m.d_mlp = small(0, 1 << 20);
  m.init = static_cast<InitKind>(choice(2));
  o.kind = static_cast<OptimizerKind>(choice(2));
  for (double* v : {&o.learning_rate, &o.beta1, &o.beta2, &o.epsilon, &o.clip}) *v = r.f64();
  s.vary = static_cast<Difference>(choice(5));
  s.b_scale = choice(2) == 1;
  s.b_d_k = small(1, kMaxDHead);
  s.b_temperature = r.f64();
  ok = ok && std::isfinite(s.b_temperature) && s.b_temperature >= kMinTemperature && s.b_temperature <= kMaxTemperature;
  s.b_heads = small(1, kMaxHeads);
  s.b_init = static_cast<InitKind>(choice(2));
  return ok && r.ok();
}

const char* model_name(int which) { return which == 0 ? "A" : "B"; }

const char* const kTruncated = "the saved training state is cut short or damaged";

}  // namespace

std::string Trainer::save_state(long curve_from) const {
  started();
  const size_t from = static_cast<size_t>(std::clamp<long>(curve_from, 0, static_cast<long>(curves_[0].size())));
  ByteWriter w;
  w.reserve(64 + 12 * models_[0]->parameters().size() + 12 * models_[1]->parameters().size() +
            2 * kRecordFields * 8 * (curves_[0].size() - from));
  w.raw(kMagic, sizeof kMagic);
  w.u32(kStateVersion);
  w.str(settings_bytes(settings_));
  w.i64(steps_done_);
  w.u8(stopped_ ? 1 : 0);
  w.str(message_.substr(0, kMaxMessageBytes));
  w.u8(stop_cause_.model < 0 ? 255 : static_cast<uint8_t>(stop_cause_.model));
  w.u8(stop_cause_.gradient ? 1 : 0);
  w.u8(stop_cause_.nan ? 1 : 0);
  const Rng::State rng = data_rng_.save();
  w.u64(rng.state);
  w.u8(rng.has_spare ? 1 : 0);
  w.f64(rng.spare);
  for (int m = 0; m < 2; ++m) write_model(w, models_[m]->parameters(), optim_[m].save());
  w.i64(static_cast<long long>(from));
  w.u64(curves_[0].size() - from);
  for (int m = 0; m < 2; ++m)
    for (size_t i = from; i < curves_[m].size(); ++i)
      for (const auto field : kRecordField) w.f64(curves_[m][i].*field);
  return w.take();
}

std::string Trainer::load_state(const std::string& bytes) {
  started();  // bytes of the same settings are adopted into the models as they are
  ByteReader r(bytes);
  if (!r.magic()) return "these bytes are not a saved training state";
  const uint32_t version = r.u32();
  if (!r.ok()) return kTruncated;
  if (version != kStateVersion && version != 1)
    return "the training state was saved in format version " + std::to_string(version) + "; this build reads version " +
           std::to_string(kStateVersion);
  TrainSettings settings;
  const std::string settings_text = r.str(1024);
  if (!r.ok()) return kTruncated;
  ByteReader settings_reader(settings_text);
  if (!read_settings(settings_reader, settings) || !settings_reader.at_end())
    return "the saved training settings are damaged";
  std::string err = validate(settings);
  if (!err.empty()) return "the saved training settings are refused: " + err;
  const long long steps = r.i64();
  const uint8_t stopped = r.u8();
  std::string message = r.str(kMaxMessageBytes);
  StopCause cause;
  if (version >= 2) {
    const uint8_t model = r.u8(), gradient = r.u8(), nan = r.u8();
    if (model > 1 && model != 255) return "the saved stop cause is damaged";
    cause = StopCause{model == 255 ? -1 : model, gradient == 1, nan == 1};
  }
  Rng::State rng;
  rng.state = r.u64();
  const uint8_t has_spare = r.u8();
  rng.spare = r.f64();
  rng.has_spare = has_spare == 1;
  SavedModel saved[2] = {read_model(r), read_model(r)};
  const long long curve_from = r.i64();
  const uint64_t records = r.u64();
  if (!r.ok()) return kTruncated;
  if (steps < 0 || steps > kMaxSteps || stopped > 1 || has_spare > 1 || !std::isfinite(rng.spare))
    return "the saved training state has an invalid step count or flag";
  if (curve_from < 0 || static_cast<size_t>(curve_from) > curves_[0].size() ||
      records != static_cast<uint64_t>(steps - curve_from))
    return "the saved curves (from record " + std::to_string(curve_from) + ", " + std::to_string(records) +
           " records) do not continue this run of " + std::to_string(curves_[0].size()) + " steps to step " +
           std::to_string(steps);
  const bool same_settings = settings_bytes(settings) == settings_bytes(settings_);
  if (curve_from > 0 && !same_settings) return "the saved curves continue a run with other settings";
  if (!r.has(static_cast<size_t>(records) * 2 * kRecordFields * 8)) return kTruncated;
  std::vector<StepRecord> added[2];  // the records after curve_from
  for (int m = 0; m < 2; ++m) {
    added[m].resize(static_cast<size_t>(records));
    for (StepRecord& rec : added[m])
      for (const auto field : kRecordField) rec.*field = r.f64();
  }
  if (!r.ok()) return kTruncated;
  if (!r.at_end()) return "the saved training state has bytes after its end";
  std::unique_ptr<Model<float>> models[2];  // new layouts only when the settings change
  Optimizer<float> optim[2];
  for (int m = 0; m < 2; ++m) {
    if (!same_settings) models[m] = std::make_unique<Model<float>>(m == 0 ? model_a(settings) : model_b(settings));
    const size_t count = (same_settings ? *models_[m] : *models[m]).parameters().size();
    if (saved[m].parameters.size() != count)
      return std::string("model ") + model_name(m) + "'s saved parameters (" +
             std::to_string(saved[m].parameters.size()) + ") do not fit its settings (" + std::to_string(count) + ")";
    optim[m].reset(settings.optim, saved[m].parameters.size());
    err = optim[m].restore(std::move(saved[m].optim), saved[m].parameters.size());
    if (!err.empty()) return std::string("model ") + model_name(m) + ": " + err;
  }
  // Everything checked: adopt it all at once.
  settings_ = settings;
  for (int m = 0; m < 2; ++m) {
    if (!same_settings) {
      models_[m] = std::move(models[m]);
      work_[m] = Workspace<float>();
      probe_work_[m] = Workspace<float>();
      curves_[m].reserve(static_cast<size_t>(std::min<long long>(std::max<long long>(steps, settings.steps), 20000)));
    }
    models_[m]->parameters() = std::move(saved[m].parameters);
    optim_[m] = std::move(optim[m]);
    curves_[m].resize(static_cast<size_t>(curve_from));
    curves_[m].insert(curves_[m].end(), added[m].begin(), added[m].end());
  }
  data_rng_.restore(rng);
  if (!same_settings) draw_probe_batch();
  forget_probes();
  steps_done_ = static_cast<long>(steps);
  stopped_ = stopped == 1;
  message_ = std::move(message);
  stop_cause_ = cause;
  return "";
}

namespace {
constexpr uint32_t kProbeTag = 0x50524231;  // "PRB1"

void write_ints(ByteWriter& w, const std::vector<int>& v) {
  w.u64(v.size());
  for (const int x : v) w.i64(x);
}
bool read_ints(ByteReader& r, std::vector<int>& v, size_t n) {
  if (r.u64() != n || !r.has(n * 8)) return false;
  v.resize(n);
  for (int& x : v) x = static_cast<int>(r.i64());
  return r.ok();
}
}  // namespace

std::string Trainer::save_probes() const {
  ByteWriter w;
  w.u32(kProbeTag);
  w.i64(steps_done_);
  for (int m = 0; m < 2; ++m) {
    const ProbeView& v = probe(m);
    write_ints(w, v.tokens);
    write_ints(w, v.targets);
    write_ints(w, v.predictions);
    for (const std::string& label : v.labels) w.str(label);
    w.f64(v.loss);
    w.f64(v.accuracy);
    w.u64(v.heads.size());
    for (const HeadView& h : v.heads) {
      w.i64(h.layer);
      w.i64(h.head);
      w.floats(std::vector<float>(h.weights.data(), h.weights.data() + h.weights.size()));
      for (const double x : {h.previous_token, h.induction, h.self}) w.f64(x);
    }
  }
  return w.take();
}

// Refuses views of another step or another shape (they would describe weights this trainer does not hold).
std::string Trainer::adopt_probes(const std::string& bytes) const {
  started();
  ByteReader r(bytes);
  if (r.u32() != kProbeTag || r.i64() != steps_done_) return "the probe views are of another step";
  std::optional<ProbeView> views[2];
  for (int m = 0; m < 2; ++m) {
    const ModelSettings& ms = models_[m]->settings();
    const size_t n = static_cast<size_t>(ms.seq_len);
    ProbeView v;
    if (!read_ints(r, v.tokens, n) || !read_ints(r, v.targets, n) || !read_ints(r, v.predictions, n))
      return "the probe views do not fit the models";
    for (size_t t = 0; t < n; ++t) v.labels.push_back(r.str(64));
    v.loss = r.f64();
    v.accuracy = r.f64();
    if (r.u64() != static_cast<uint64_t>(ms.layers) * static_cast<uint64_t>(ms.heads))
      return "the probe views do not fit the models";
    for (int i = 0; i < ms.layers * ms.heads; ++i) {
      HeadView h;
      h.layer = static_cast<int>(r.i64());
      h.head = static_cast<int>(r.i64());
      const std::vector<float> weights = r.floats();
      if (!r.ok() || weights.size() != n * n) return "the probe views do not fit the models";
      h.weights = Eigen::Map<const Mat>(weights.data(), ms.seq_len, ms.seq_len);
      h.previous_token = r.f64();
      h.induction = r.f64();
      h.self = r.f64();
      v.heads.push_back(std::move(h));
    }
    views[m] = std::move(v);
  }
  if (!r.ok() || !r.at_end()) return "the probe views are cut short or damaged";
  for (int m = 0; m < 2; ++m) {
    views[m]->pass = ++probe_passes_;
    probe_views_[m] = std::move(views[m]);
  }
  return "";
}

}  // namespace attn::train
