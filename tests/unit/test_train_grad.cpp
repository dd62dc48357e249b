// test_train_grad.cpp — the hand-written backprop against central finite differences, and float against double.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/train/train_model.h"
#include "core/train/train_tasks.h"

using namespace attn::train;

namespace {

// A random small model for `task` whose vocabulary and length the task accepts.
ModelSettings random_small(attn::Rng& rng, TaskKind task, int layers, bool causal, bool scale) {
  ModelSettings m;
  m.seq_len = 4 + 2 * uniform_int(rng, 3);  // 4, 6 or 8
  const int pairs = (m.seq_len - 2) / 2;
  const int min_vocab = task == TaskKind::Lookup ? 2 * pairs + 1 : task == TaskKind::Induction ? m.seq_len / 2 : 3;
  m.vocab = std::max(min_vocab, 3) + uniform_int(rng, 3);
  m.d_model = 2 + 2 * uniform_int(rng, 3);  // 2, 4 or 6
  m.layers = layers;
  m.heads = 1 + uniform_int(rng, 2);
  m.d_k = 1 + uniform_int(rng, 4);
  m.d_v = 1 + uniform_int(rng, 3);
  m.scale = scale;
  m.causal = causal;
  m.temperature = 0.5 + 1.5 * rng.uniform();
  m.positional = uniform_int(rng, 2) ? PositionalKind::Learned : PositionalKind::Sinusoidal;
  m.norm = uniform_int(rng, 3) != 0;
  m.mlp = uniform_int(rng, 2) != 0;
  m.d_mlp = 2 + uniform_int(rng, 4);
  m.init = uniform_int(rng, 4) ? InitKind::Unit : InitKind::Small;
  return m;
}

std::string describe(TaskKind task, const ModelSettings& m) {
  return std::string(task_name(task)) + " L=" + std::to_string(m.layers) + " h=" + std::to_string(m.heads) +
         " d_k=" + std::to_string(m.d_k) + " d_v=" + std::to_string(m.d_v) + " d_model=" + std::to_string(m.d_model) +
         " n=" + std::to_string(m.seq_len) + " V=" + std::to_string(m.vocab) + (m.causal ? " causal" : " no-mask") +
         (m.scale ? " scaled" : " unscaled") + (m.norm ? " rms" : " no-norm") + (m.mlp ? " mlp" : "") +
         (m.positional == PositionalKind::Learned ? " learned-pos" : " sinusoidal") +
         (m.init == InitKind::Unit ? " unit" : " small");
}

}  // namespace

TEST_CASE("every parameter gradient matches central finite differences in double precision", "[train][grad]") {
  attn::Rng rng(20240611);
  const TaskKind tasks[] = {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::Lookup, TaskKind::Induction};
  int configs = 0;
  double largest_rel = 0, largest_entry = 0;
  for (TaskKind task : tasks)
    for (int layers = 1; layers <= 2; ++layers)
      for (int causal = 0; causal <= 1; ++causal)
        for (int scale = 0; scale <= 1; ++scale) {
          const ModelSettings m = random_small(rng, task, layers, causal != 0, scale != 0);
          INFO(describe(task, m));
          Model<double> model(m);
          attn::Rng init(rng.next_u64());
          model.initialise(init);
          // Off the initial point: biases and every weight nonzero and no symmetry left.
          for (double& p : model.parameters()) p += 0.1 * rng.normal();
          Batch batch;
          attn::Rng data(rng.next_u64());
          generate_batch(task, m.vocab, m.seq_len, 2, data, batch);
          Workspace<double> ws;
          PassStats st = model.forward(batch, ws, false);
          model.backward(batch, ws, st);
          const std::vector<double> analytic = ws.gradients;
          REQUIRE(std::isfinite(st.loss));

          // Fourth-order central differences, [8(f(+h) − f(−h)) − (f(+2h) − f(−2h))] / 12h with
          // h = 1e-4: rounding (≈ 1.5·ε·loss/h) is about 5e-12 and truncation (h⁴·f⁽⁵⁾/30) far
          // below, so even the small init's tiny gradients are measured to better than 1e-5.
          const double h = 1e-4;
          std::vector<double>& p = model.parameters();
          const auto loss_at = [&](size_t i, double x) {
            const double saved = p[i];
            p[i] = x;
            const double l = model.forward(batch, ws, false).loss;
            p[i] = saved;
            return l;
          };
          for (const TensorInfo& t : model.tensors()) {
            double diff2 = 0, ref2 = 0, worst = 0;
            for (size_t i = t.offset; i < t.offset + t.size(); ++i) {
              const double x = p[i];
              const double near = loss_at(i, x + h) - loss_at(i, x - h);
              const double far = loss_at(i, x + 2 * h) - loss_at(i, x - 2 * h);
              const double numeric = (8 * near - far) / (12 * h);
              const double e = std::abs(numeric - analytic[i]);
              diff2 += e * e;
              ref2 += numeric * numeric;
              // Entry by entry: relative to the entry, with an absolute floor at the differences' own accuracy.
              worst = std::max(worst, e / std::max(std::abs(numeric), 1e-6));
            }
            INFO("tensor " << t.name << " (" << t.rows << "x" << t.cols << ")");
            const double rel = std::sqrt(diff2) / std::max(std::sqrt(ref2), 1e-12);
            CHECK(rel < 1e-5);
            CHECK(worst < 1e-5);
            largest_rel = std::max(largest_rel, rel);
            largest_entry = std::max(largest_entry, worst);
          }
          ++configs;
        }
  CHECK(configs == 40);
  WARN("largest relative error per tensor " << largest_rel << ", per entry " << largest_entry);
}

TEST_CASE("the float model (playground kernels) agrees with the double model", "[train][grad]") {
  const TaskKind tasks[] = {TaskKind::Copy, TaskKind::Sort, TaskKind::Lookup, TaskKind::Induction};
  int k = 0;
  for (TaskKind task : tasks) {
    ModelSettings m;
    m.seq_len = 16;
    m.vocab = 16;
    m.d_model = 32;
    m.layers = 1 + k % 2;
    m.heads = 2;
    m.d_k = k == 0 ? 64 : 16;
    m.d_v = 16;
    m.scale = k % 2 == 0;
    m.causal = task != TaskKind::Lookup;
    m.mlp = k == 3;
    m.norm = k != 2;
    ++k;
    INFO(describe(task, m));
    Model<float> mf(m);
    Model<double> md(m);
    attn::Rng r1(7), r2(7);
    mf.initialise(r1);
    md.initialise(r2);
    for (size_t i = 0; i < mf.parameters().size(); ++i)
      REQUIRE(static_cast<double>(mf.parameters()[i]) == md.parameters()[i]);
    Batch batch;
    attn::Rng data(11);
    generate_batch(task, m.vocab, m.seq_len, 4, data, batch);
    Workspace<float> wf;
    Workspace<double> wd;
    PassStats sf = mf.forward(batch, wf, true);
    PassStats sd = md.forward(batch, wd, true);
    mf.backward(batch, wf, sf);
    md.backward(batch, wd, sd);
    CHECK(sf.loss == Approx(sd.loss).epsilon(1e-5));
    CHECK(sf.correct == sd.correct);
    CHECK(sf.mean_entropy == Approx(sd.mean_entropy).epsilon(1e-4));
    CHECK(sf.mean_jacobian_norm == Approx(sd.mean_jacobian_norm).epsilon(1e-4));
    CHECK(sf.logit_grad_norm == Approx(sd.logit_grad_norm).epsilon(1e-3));
    for (const TensorInfo& t : mf.tensors()) {
      double diff2 = 0, ref2 = 0;
      for (size_t i = t.offset; i < t.offset + t.size(); ++i) {
        const double e = static_cast<double>(wf.gradients[i]) - wd.gradients[i];
        diff2 += e * e;
        ref2 += wd.gradients[i] * wd.gradients[i];
      }
      INFO("tensor " << t.name);
      CHECK(std::sqrt(diff2) <= 1e-3 * std::sqrt(ref2) + 1e-7);
    }
    for (size_t h = 0; h < wf.layers[0].A.size(); ++h)
      CHECK((wf.layers[0].A[h].cast<double>() - wd.layers[0].A[h]).cwiseAbs().maxCoeff() < 1e-5);
  }
}

TEST_CASE("masked attention weights are exactly zero and pass no gradient", "[train][grad]") {
  ModelSettings m;
  m.seq_len = 8;
  m.vocab = 8;
  m.d_model = 8;
  m.heads = 2;
  m.d_k = 4;
  m.d_v = 4;
  Model<float> model(m);
  attn::Rng init(3);
  model.initialise(init);
  Batch batch;
  attn::Rng data(5);
  generate_batch(TaskKind::Copy, m.vocab, m.seq_len, 3, data, batch);
  Workspace<float> ws;
  model.forward(batch, ws, false);
  for (const auto& A : ws.layers[0].A)
    for (int i = 0; i < m.seq_len; ++i) {
      for (int j = i + 1; j < m.seq_len; ++j) CHECK(A(i, j) == 0.0f);
      CHECK(A.row(i).sum() == Approx(1.0f).epsilon(1e-5));
    }
  // Under the causal mask the last token is invisible to every earlier position: changing it
  // leaves their attention rows bit for bit as they were.
  Workspace<float> ws2;
  Batch changed = batch;
  for (int b = 0; b < batch.batch; ++b) changed.tokens[static_cast<size_t>(b) * m.seq_len + m.seq_len - 1] = 0;
  model.forward(changed, ws2, false);
  for (size_t h = 0; h < ws.layers[0].A.size(); ++h)
    CHECK(
        (ws.layers[0].A[h].topRows(m.seq_len - 1) - ws2.layers[0].A[h].topRows(m.seq_len - 1)).cwiseAbs().maxCoeff() ==
        0.0f);
}
