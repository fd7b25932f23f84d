// The linear analysis's files (linear.hpp): linear.json's object and the CSV files A, B,
// C, D, modes and bode, their numbers written to the last bit.
#include <cmath>
#include <cstdio>
#include <numbers>

#include "jourdain/errors.hpp"
#include "linear_internal.hpp"

namespace jourdain {

using nlohmann::json;
using cd = std::complex<double>;
using detail::complex_json;
using detail::finite_or_null;

namespace detail {

json complex_json(const cd& z) { return json::array({z.real(), z.imag()}); }
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace detail

namespace {

const char* stability_of(const LinearMode& m) { return m.stable ? "stable" : m.unstable ? "unstable" : "marginal"; }

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

// The unit of an output per unit of an input ("m/N"); "1" stands for no unit.
std::string ratio_unit(const std::string& out, const std::string& in) {
  const std::string o = out.empty() ? "1" : out;
  if (in.empty() || in == "1") return o;
  return o + "/" + (in.find_first_of("*/") != std::string::npos ? "(" + in + ")" : in);
}

// Phase in degrees, unwrapped along the frequencies (no jumps of 360°).
std::vector<double> unwrapped_phase(const Eigen::VectorXcd& g) {
  std::vector<double> phase;
  double offset = 0.0, previous = 0.0;
  for (Eigen::Index k = 0; k < g.size(); ++k) {
    const double raw = std::arg(g[k]) * 180.0 / std::numbers::pi;
    if (k > 0) {
      while (raw + offset - previous > 180.0) offset -= 360.0;
      while (raw + offset - previous < -180.0) offset += 360.0;
    }
    previous = raw + offset;
    phase.push_back(previous);
  }
  return phase;
}

}  // namespace

json to_json(const LinearModel& lm) {
  auto names = [&](const std::vector<int>& idx) {
    json out = json::array();
    for (int i : idx) out.push_back(lm.state_names[i]);
    return out;
  };
  json op_states = json::object();
  for (size_t i = 0; i < lm.state_names.size(); ++i) op_states[lm.state_names[i]] = lm.x[static_cast<Eigen::Index>(i)];
  json inputs = json::array(), outputs = json::array();
  for (size_t k = 0; k < lm.inputs.size(); ++k) inputs.push_back({{"name", lm.inputs[k]}, {"unit", lm.input_units[k]}});
  for (size_t k = 0; k < lm.outputs.size(); ++k)
    outputs.push_back({{"name", lm.outputs[k]}, {"unit", lm.output_units[k]}});
  json eigenvalues = json::array();
  for (const cd& l : lm.eigenvalues) eigenvalues.push_back(complex_json(l));
  json modes = json::array();
  const double two_pi = 2.0 * std::numbers::pi;
  for (const LinearMode& m : lm.modes) {
    json participation = json::array();
    for (const auto& [k, f] : m.participation)
      if (f >= 1e-3) participation.push_back({{"state", lm.state_names[lm.independent[k]]}, {"factor", f}});
    json shape = json::object();
    for (size_t i = 0; i < lm.state_names.size(); ++i) shape[lm.state_names[i]] = complex_json(m.shape[static_cast<Eigen::Index>(i)]);
    modes.push_back({{"eigenvalue", complex_json(m.eigenvalue)},
                     {"natural_frequency_hz", m.natural_frequency / two_pi},
                     {"natural_frequency_rad_s", m.natural_frequency},
                     {"damped_frequency_hz", std::abs(m.eigenvalue.imag()) / two_pi},
                     {"damping_ratio", finite_or_null(m.damping_ratio)},
                     {"time_constant_s", finite_or_null(m.time_constant)},
                     {"kind", m.oscillatory ? "oscillatory" : "real"},
                     {"stable", m.stable},
                     {"stability", stability_of(m)},
                     {"participation", participation},
                     {"shape", shape}});
  }
  json out = {{"operating_point", {{"at", lm.at}, {"time", lm.time},
                                   {"note", lm.frozen.empty() ? "the model has no discrete states or events"
                                                              : "discrete states and events are frozen at the "
                                                                "operating point"},
                                   {"frozen", lm.frozen},
                                   {"warnings", lm.warnings},
                                   {"states", op_states}}},
              {"states", names(lm.independent)},
              {"dependent_states", names(lm.dependent)},
              {"inputs", inputs},
              {"outputs", outputs},
              {"A", matrix_json(lm.A)},
              {"B", matrix_json(lm.B)},
              {"C", matrix_json(lm.C)},
              {"D", matrix_json(lm.D)},
              {"stability", lm.stability},
              {"eigenvalues", eigenvalues},
              {"modes", modes}};
  // How close to ẋ = 0 an equilibrium is; elsewhere ẋ is no error.
  if (lm.at == "equilibrium") out["operating_point"]["residual"] = lm.residual;
  if (!lm.response.empty()) {
    json pairs = json::array();
    const size_t ni = lm.inputs.size();
    for (size_t o = 0; o < lm.outputs.size(); ++o)
      for (size_t i = 0; i < ni; ++i) {
        const Eigen::VectorXcd& g = lm.response[o * ni + i];
        json mag = json::array(), db = json::array();
        for (Eigen::Index k = 0; k < g.size(); ++k) {
          mag.push_back(std::abs(g[k]));
          db.push_back(std::abs(g[k]) > 0 ? json(20.0 * std::log10(std::abs(g[k]))) : json(nullptr));
        }
        pairs.push_back({{"input", lm.inputs[i]},
                         {"output", lm.outputs[o]},
                         {"unit", ratio_unit(lm.output_units[o], lm.input_units[i])},
                         {"magnitude", mag},
                         {"magnitude_db", db},
                         {"phase_deg", unwrapped_phase(g)}});
      }
    json freq = json::array();
    for (Eigen::Index k = 0; k < lm.frequencies_hz.size(); ++k) freq.push_back(lm.frequencies_hz[k]);
    out["bode"] = {{"frequency_hz", freq}, {"pairs", pairs}};
  }
  return out;
}

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string matrix_csv(const Eigen::MatrixXd& m, const std::vector<std::string>& rows,
                       const std::vector<std::string>& cols) {
  std::string text = "row";
  for (const auto& c : cols) text += "," + c;
  text += "\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    text += rows[static_cast<size_t>(i)];
    for (Eigen::Index j = 0; j < m.cols(); ++j) text += "," + number(m(i, j));
    text += "\n";
  }
  return text;
}

}  // namespace

void write_linear_files(const LinearModel& lm, const std::filesystem::path& dir) {
  write_text_file(dir / "linear.json", to_json(lm).dump(2) + "\n");
  std::vector<std::string> states;
  for (int i : lm.independent) states.push_back(lm.state_names[i]);
  std::vector<std::string> derivatives;
  for (const auto& s : states) derivatives.push_back("d(" + s + ")/dt");
  write_text_file(dir / "A.csv", matrix_csv(lm.A, derivatives, states));
  write_text_file(dir / "B.csv", matrix_csv(lm.B, derivatives, lm.inputs));
  write_text_file(dir / "C.csv", matrix_csv(lm.C, lm.outputs, states));
  write_text_file(dir / "D.csv", matrix_csv(lm.D, lm.outputs, lm.inputs));
  const double two_pi = 2.0 * std::numbers::pi;
  std::string modes =
      "mode,real_1_per_s,imag_rad_per_s,natural_frequency_hz,damped_frequency_hz,damping_ratio,time_constant_s,stability,"
      "main_state,main_participation\n";
  for (size_t k = 0; k < lm.modes.size(); ++k) {
    const LinearMode& m = lm.modes[k];
    modes += std::to_string(k + 1) + "," + number(m.eigenvalue.real()) + "," + number(m.eigenvalue.imag()) + "," +
             number(m.natural_frequency / two_pi) + "," + number(std::abs(m.eigenvalue.imag()) / two_pi) + "," +
             (std::isfinite(m.damping_ratio) ? number(m.damping_ratio) : "") + "," +
             (std::isfinite(m.time_constant) ? number(m.time_constant) : "") + "," + (stability_of(m)) + "," +
             lm.state_names[lm.independent[m.participation.front().first]] + "," +
             number(m.participation.front().second) + "\n";
  }
  write_text_file(dir / "modes.csv", modes);
  if (!lm.response.empty()) {
    std::string text = "frequency_hz";
    const size_t ni = lm.inputs.size();
    std::vector<std::vector<double>> phases;
    for (size_t o = 0; o < lm.outputs.size(); ++o)
      for (size_t i = 0; i < ni; ++i) {
        const std::string pair = lm.outputs[o] + "/" + lm.inputs[i];
        text += "," + pair + ".magnitude," + pair + ".phase_deg";
        phases.push_back(unwrapped_phase(lm.response[o * ni + i]));
      }
    text += "\n";
    for (Eigen::Index k = 0; k < lm.frequencies_hz.size(); ++k) {
      text += number(lm.frequencies_hz[k]);
      for (size_t q = 0; q < lm.response.size(); ++q)
        text += "," + number(std::abs(lm.response[q][k])) + "," + number(phases[q][static_cast<size_t>(k)]);
      text += "\n";
    }
    write_text_file(dir / "bode.csv", text);
  }
}

}  // namespace jourdain
