// A linear analysis for the report tests, written by hand as the linearizer writes
// linear.json (apps/report/README.md, "Linear analysis"): netlists/pendulum.json
// (m = 1 kg, rod L = 1 m, I = 1e-6 kg·m² about the mass centre) hanging at rest, with a
// torque τ on the bob as input and the angle as output. About θ = −π/2 (theta is the
// body x axis' angle, pivot to bob):
//   I_O θ'' = −m g L (θ + π/2) + τ,   I_O = I + m L²,   ω0² = m g L / I_O,
// so x = (θ, ω), A = [[0, 1], [−ω0², 0]], B = [[0], [1/I_O]], C = [[1, 0]], D = [[0]],
// eigenvalues ±jω0 (marginally stable), G(jω) = θ/τ = (1/I_O) / (ω0² − ω²).
// The report takes names as given: it does not ask the model whether a torque exists.
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/report/report.hpp"

namespace jourdain::test {

struct PendulumLinear {
  static constexpr double m = 1.0, L = 1.0, I = 1e-6, g = 9.81;
  static double inertia_about_pivot() { return I + m * L * L; }
  static double omega0() { return std::sqrt(m * g * L / inertia_about_pivot()); }  // rad/s

  // linear.json's object, frequency response at `points` log-spaced frequencies 0.01–100 Hz.
  static nlohmann::json json(int points = 41) {
    using nlohmann::json;
    const double w0 = omega0(), io = inertia_about_pivot(), pi = std::numbers::pi;
    json bode_f = json::array(), mag = json::array(), db = json::array(), phase = json::array();
    for (int k = 0; k < points; ++k) {
      const double f = std::pow(10.0, -2.0 + 4.0 * k / (points - 1)), w = 2 * pi * f;
      const double G = (1.0 / io) / (w0 * w0 - w * w);  // real: no damping
      bode_f.push_back(f);
      mag.push_back(std::abs(G));
      db.push_back(20 * std::log10(std::abs(G)));
      phase.push_back(G >= 0 ? 0.0 : -180.0);
    }
    return {
        {"operating_point", {{"at", "equilibrium"}, {"time", 0.0}, {"residual", 1e-15},
                             {"note", "discrete states and events are frozen at the operating point"}}},
        {"states", {"bob.theta", "bob.omega"}},
        {"dependent_states", {"bob.x", "bob.y", "bob.vx", "bob.vy"}},
        {"inputs", {{{"name", "torque.value"}, {"unit", "N*m"}}}},
        {"outputs", {{{"name", "bob.theta"}, {"unit", "rad"}}}},
        {"A", {{0.0, 1.0}, {-w0 * w0, 0.0}}},
        {"B", {{0.0}, {1.0 / io}}},
        {"C", {{1.0, 0.0}}},
        {"D", {{0.0}}},
        {"stability", "marginally stable"},
        {"eigenvalues", {{0.0, w0}, {0.0, -w0}}},
        {"modes",
         {{{"eigenvalue", {0.0, w0}},
           {"natural_frequency_hz", w0 / (2 * pi)},
           {"natural_frequency_rad_s", w0},
           {"damped_frequency_hz", w0 / (2 * pi)},
           {"damping_ratio", 0.0},
           {"time_constant_s", nullptr},
           {"kind", "oscillatory"},
           {"stable", true},
           {"participation", {{{"state", "bob.theta"}, {"factor", 0.5}}, {{"state", "bob.omega"}, {"factor", 0.5}}}},
           // d(x, y)/dθ at θ = −π/2: (−sin θ, cos θ) = (1, 0); velocities jω0 times that.
           {"shape", {{"bob.theta", {1.0, 0.0}}, {"bob.omega", {0.0, w0}}, {"bob.x", {1.0, 0.0}},
                      {"bob.y", {0.0, 0.0}}, {"bob.vx", {0.0, w0}}, {"bob.vy", {0.0, 0.0}}}}}}},
        {"bode", {{"frequency_hz", bode_f},
                  {"pairs", {{{"input", "torque.value"}, {"output", "bob.theta"}, {"unit", "rad/(N*m)"},
                              {"magnitude", mag}, {"magnitude_db", db}, {"phase_deg", phase}}}}}}};
  }

  // The bob's angle at phase 2πk/n of the mode's cycle, `amplitude` rad about hanging:
  // Re(shape · a e^{jφ}) for θ.
  static double theta(int k, int n, double amplitude) {
    return -std::numbers::pi / 2 + amplitude * std::cos(2 * std::numbers::pi * k / n);
  }

  // Sets the pendulum's states to the mode's pose at phase k of n (positions on the
  // circle, so that the hinge holds) and evaluates the model.
  static void set_mode_pose(const Model& model, Context& ctx, int k, int n, double amplitude) {
    const double th = theta(k, n, amplitude);
    const double om = -amplitude * omega0() * std::sin(2 * std::numbers::pi * k / n);
    const auto set = [&](const char* name, double v) { ctx.x[model.recordable(name).index] = v; };
    set("bob.theta", th);
    set("bob.omega", om);
    set("bob.x", L * std::cos(th));
    set("bob.y", L * std::sin(th));
    set("bob.vx", -L * std::sin(th) * om);
    set("bob.vy", L * std::cos(th) * om);
    model.evaluate(ctx);
  }

  // A report of the pendulum as a linear run gives it: the operating point's row, the
  // linear analysis, `frames` frames of mode 0 (amplitude 0.3 rad).
  static void fill(const Model& model, report::Report& page, int frames) {
    Context ctx = model.make_context(0.0);
    set_mode_pose(model, ctx, 0, 4, 0.0);  // at rest, hanging
    page.row_recorded(ctx, {});
    page.set_linear(json());
    for (int k = 0; k < frames; ++k) {
      set_mode_pose(model, ctx, k, frames, 0.3);
      page.mode_frame(0, ctx);
    }
  }
};

}  // namespace jourdain::test
