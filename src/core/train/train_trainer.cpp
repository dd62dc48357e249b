// train_trainer.cpp — lockstep training of models A and B, the probe example, scenario and JSON export.
#include "core/train/train_trainer.h"

#include <algorithm>
#include <cmath>

#include "core/attention/attention.h"

namespace attn::train {

namespace {

constexpr int kProbeBatch = 8;

// Independent streams from one seed: initialisation, training batches, the probe batch.
struct Seeds {
  uint64_t init, data, probe;
};

Seeds derive_seeds(uint64_t seed) {
  Rng mixer(seed);
  Seeds s;
  s.init = mixer.next_u64();
  s.data = mixer.next_u64();
  s.probe = mixer.next_u64();
  return s;
}

const char* model_name(int which) { return which == 0 ? "A" : "B"; }

// Mean weight on the patterns of HeadView, over every query position of every probe sequence.
void pattern_scores(const std::vector<MatX<float>>& A, int heads, int head, const Batch& batch, HeadView& hv) {
  const int n = batch.seq_len;
  double prev = 0, self = 0, ind = 0;
  long prev_count = 0, self_count = 0, ind_count = 0;
  for (int b = 0; b < batch.batch; ++b) {
    const MatX<float>& W = A[static_cast<size_t>(b) * heads + head];
    for (int t = 0; t < n; ++t) {
      self += W(t, t);
      ++self_count;
      if (t >= 1) {
        prev += W(t, t - 1);
        ++prev_count;
      }
      for (int j = t - 1; j >= 0; --j)
        if (batch.token(b, j) == batch.token(b, t)) {
          ind += W(t, j + 1);
          ++ind_count;
          break;
        }
    }
  }
  hv.previous_token = prev_count ? prev / static_cast<double>(prev_count) : 0;
  hv.self = self_count ? self / static_cast<double>(self_count) : 0;
  hv.induction = ind_count ? ind / static_cast<double>(ind_count) : 0;
}

}  // namespace

Trainer::Trainer() { settings_ = default_settings(); }

Trainer& Trainer::started() const {
  auto& self = const_cast<Trainer&>(*this);  // every Trainer is made non-const; only its lazy start is done here
  if (!started_) self.start();
  return self;
}

std::string Trainer::reset(const TrainSettings& settings) {
  std::string err = validate(settings);
  if (!err.empty()) return err;
  settings_ = settings;
  start();
  return "";
}

void Trainer::restart() { start(); }

void Trainer::start() {
  started_ = true;
  const Seeds seeds = derive_seeds(settings_.seed);
  for (int w = 0; w < 2; ++w) {
    models_[w] = std::make_unique<Model<float>>(w == 0 ? model_a(settings_) : model_b(settings_));
    Rng init_rng(seeds.init);  // the same draws for both: equal shapes start from equal weights
    models_[w]->initialise(init_rng);
    optim_[w].reset(settings_.optim, models_[w]->parameters().size());
    curves_[w].clear();
    // Room for the planned run up front (no reallocation while training), within reason.
    curves_[w].reserve(static_cast<size_t>(std::min(settings_.steps, 20000L)));
    work_[w] = Workspace<float>();
    probe_work_[w] = Workspace<float>();
  }
  data_rng_ = Rng(seeds.data);
  draw_probe_batch();
  forget_probes();
  steps_done_ = 0;
  stopped_ = false;
  message_.clear();
  stop_cause_ = StopCause{};
}

void Trainer::draw_probe_batch() {
  Rng probe_rng(derive_seeds(settings_.seed).probe);
  const ModelSettings& m = settings_.model;
  generate_batch(settings_.task, m.vocab, m.seq_len, kProbeBatch, probe_rng, probe_batch_);
}

bool Trainer::check_finite(int which, const PassStats& st, double grad_norm) {
  const char* what = !std::isfinite(st.loss) ? "loss" : !std::isfinite(grad_norm) ? "gradient" : nullptr;
  if (!what) return true;
  const double bad = std::isfinite(st.loss) ? grad_norm : st.loss;
  stopped_ = true;
  stop_cause_ = StopCause{which, std::isfinite(st.loss), std::isnan(bad)};
  message_ = "training stopped at step " + std::to_string(steps_done_ + 1) + ": model " + model_name(which) + " (" +
             label(which) + ")'s " + what + " is " + (std::isnan(bad) ? "NaN" : "infinite") +
             "; the weights are those before this step. Lower the learning rate or turn on gradient clipping, then "
             "reset.";
  return false;
}

int Trainer::step(int count) {
  started();
  forget_probes();
  int done = 0;
  const ModelSettings& m = settings_.model;
  while (done < count && !stopped_) {
    generate_batch(settings_.task, m.vocab, m.seq_len, settings_.batch, data_rng_, batch_);
    PassStats st[2];
    double grad_norm[2];
    for (int w = 0; w < 2; ++w) {
      st[w] = models_[w]->forward(batch_, work_[w], true);
      models_[w]->backward(batch_, work_[w], st[w]);
      grad_norm[w] = global_norm(work_[w].gradients);
    }
    if (!check_finite(0, st[0], grad_norm[0]) || !check_finite(1, st[1], grad_norm[1])) break;
    for (int w = 0; w < 2; ++w) {
      optim_[w].step(models_[w]->parameters(), work_[w].gradients, grad_norm[w]);
      StepRecord r;
      r.loss = st[w].loss;
      r.accuracy = st[w].scored ? static_cast<double>(st[w].correct) / static_cast<double>(st[w].scored) : 0;
      r.sequence_accuracy =
          st[w].sequences ? static_cast<double>(st[w].sequences_correct) / static_cast<double>(st[w].sequences) : 0;
      r.jacobian_norm = st[w].mean_jacobian_norm;
      r.logit_grad_norm = st[w].logit_grad_norm;
      r.entropy = st[w].mean_entropy;
      r.grad_norm = grad_norm[w];
      curves_[w].push_back(r);
    }
    ++steps_done_;
    ++done;
  }
  return done;
}

std::string Trainer::init_text(int which) const { return init_description(model(which).settings()); }

const ProbeView& Trainer::probe(int which) const {
  started();
  std::optional<ProbeView>& kept = probe_views_[index(which)];
  if (kept) return *kept;
  const Model<float>& model = *models_[index(which)];
  Workspace<float>& ws = probe_work_[index(which)];
  const PassStats st = model.forward(probe_batch_, ws, false);
  ++probe_passes_run_;
  const ModelSettings& m = model.settings();
  ProbeView v;
  const int n = m.seq_len;
  for (int t = 0; t < n; ++t) {
    v.tokens.push_back(probe_batch_.token(0, t));
    v.targets.push_back(probe_batch_.target(0, t));
    v.predictions.push_back(ws.predictions[static_cast<size_t>(t)]);
    v.labels.push_back(token_label(settings_.task, m.vocab, probe_batch_.token(0, t)));
  }
  for (int l = 0; l < m.layers; ++l)
    for (int h = 0; h < m.heads; ++h) {
      HeadView hv;
      hv.layer = l;
      hv.head = h;
      hv.weights = ws.layers[static_cast<size_t>(l)].A[static_cast<size_t>(h)];
      pattern_scores(ws.layers[static_cast<size_t>(l)].A, m.heads, h, probe_batch_, hv);
      v.heads.push_back(std::move(hv));
    }
  v.loss = st.loss;
  v.accuracy = st.scored ? static_cast<double>(st.correct) / static_cast<double>(st.scored) : 0;
  v.pass = ++probe_passes_;
  kept = std::move(v);
  return *kept;
}

std::string Trainer::head_scenario(int which, int layer, int head, Scenario& out) const {
  if (which != 0 && which != 1) return "model must be 0 (A) or 1 (B)";
  started();
  const Model<float>& model = *models_[index(which)];
  const ModelSettings& m = model.settings();
  if (layer < 0 || layer >= m.layers)
    return "layer must be between 0 and " + std::to_string(m.layers - 1) + " (got " + std::to_string(layer) + ")";
  if (head < 0 || head >= m.heads)
    return "head must be between 0 and " + std::to_string(m.heads - 1) + " (got " + std::to_string(head) + ")";
  Workspace<float>& ws = probe_work_[index(which)];
  model.forward(probe_batch_, ws, false);
  Scenario s;
  s.X = Mat(ws.layers[static_cast<size_t>(layer)].u.topRows(m.seq_len));
  s.W_q = model.head_weights(layer, "W_q", head);
  s.W_k = model.head_weights(layer, "W_k", head);
  s.W_v = model.head_weights(layer, "W_v", head);
  s.scale = m.scale;
  s.temperature = m.temperature;
  s.mask = m.causal ? MaskKind::Causal : MaskKind::None;
  s.heads = 1;
  for (int t = 0; t < m.seq_len; ++t)
    s.tokens.push_back(token_label(settings_.task, m.vocab, probe_batch_.token(0, t)));
  out = std::move(s);
  return "";
}

InductionCircuit find_induction_circuit(const ProbeView& view, double threshold) {
  InductionCircuit c;
  for (const HeadView& h : view.heads) {
    if (h.layer == 0 && h.previous_token > c.previous_token_score) {
      c.previous_token_score = h.previous_token;
      c.previous_token_head = h.head;
    }
    if (h.layer == 1 && h.induction > c.induction_score) {
      c.induction_score = h.induction;
      c.induction_head = h.head;
    }
  }
  c.found = c.induction_head >= 0 && c.previous_token_score >= threshold && c.induction_score >= threshold;
  return c;
}

long steps_to_accuracy(const std::vector<StepRecord>& curve, double threshold, int window) {
  if (window < 1) window = 1;
  double sum = 0;
  for (size_t i = 0; i < curve.size(); ++i) {
    sum += curve[i].accuracy;
    if (i >= static_cast<size_t>(window)) sum -= curve[i - static_cast<size_t>(window)].accuracy;
    // Full windows only; the running sum carries rounding, hence the tolerance (far below 1/window).
    if (i + 1 >= static_cast<size_t>(window) && sum / window >= threshold - 1e-12) return static_cast<long>(i) + 1;
  }
  return -1;
}

nlohmann::json curve_to_json(const std::vector<StepRecord>& curve) {
  nlohmann::json j;
  const auto column = [&](const char* name, double StepRecord::*field) {
    nlohmann::json a = nlohmann::json::array();
    for (const StepRecord& r : curve) a.push_back(r.*field);
    j[name] = std::move(a);
  };
  column("loss", &StepRecord::loss);
  column("accuracy", &StepRecord::accuracy);
  column("sequence_accuracy", &StepRecord::sequence_accuracy);
  column("jacobian_norm", &StepRecord::jacobian_norm);
  column("logit_grad_norm", &StepRecord::logit_grad_norm);
  column("entropy", &StepRecord::entropy);
  column("grad_norm", &StepRecord::grad_norm);
  return j;
}

nlohmann::json Trainer::to_json(bool with_weights) const {
  started();
  const TaskInfo info = task_info(settings_.task);
  nlohmann::json j = {
      {"format", "attnplay-train"},
      {"version", 1},
      {"settings", settings_to_json(settings_)},
      {"task", {{"name", info.name}, {"format", info.format}, {"correct", info.correct}, {"accuracy", info.accuracy}}},
      {"steps", steps_done_},
      {"stopped", stopped_},
      {"message", message_},
      {"accuracy_window", kAccuracyWindow}};
  nlohmann::json models = nlohmann::json::array();
  for (int w = 0; w < 2; ++w) {
    const Model<float>& model = *models_[w];
    const ModelSettings& m = model.settings();
    const long reached = steps_to_accuracy(curves_[w], 0.9, kAccuracyWindow);
    nlohmann::json mj = {{"name", model_name(w)},
                         {"label", label(w)},
                         {"init", init_text(w)},
                         {"scale", m.scale},
                         {"d_k", m.d_k},
                         {"heads", m.heads},
                         {"temperature", m.temperature},
                         {"init_kind", init_name(m.init)},
                         {"parameters", model.parameters().size()},
                         {"steps_to_90", reached > 0 ? nlohmann::json(reached) : nlohmann::json(nullptr)},
                         {"curves", curve_to_json(curves_[w])}};
    if (with_weights) {
      nlohmann::json weights = nlohmann::json::object();
      for (const TensorInfo& t : model.tensors()) {
        nlohmann::json rows = nlohmann::json::array();
        for (int r = 0; r < t.rows; ++r) {
          const float* p = model.parameters().data() + t.offset + static_cast<size_t>(r) * t.cols;
          rows.push_back(std::vector<float>(p, p + t.cols));
        }
        weights[t.name] = std::move(rows);
      }
      mj["weights"] = std::move(weights);
    }
    models.push_back(std::move(mj));
  }
  j["models"] = std::move(models);
  return j;
}

}  // namespace attn::train
