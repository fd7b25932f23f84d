// ComponentJacobian (framework/include/jourdain/jacobian.hpp): the Jacobian assembled
// along the evaluation plan from each component's own difference quotients equals the
// Jacobian of the whole model, taken here by central differences of Model::derivatives
// (an independent formulation: it knows nothing of the plan), on example netlists
// mid-run, where valves are open, bodies move and blocks are solved. And the assembly
// leaves the Context's values as it found them.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "jourdain/jacobian.hpp"
#include "jourdain/solvers/simulate.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

struct Quiet final : Observer {
  void output(const Context&) override {}
};

// The model's state at `t` along its netlist's own run.
Context state_at(const Netlist& net, double t) {
  Context ctx = net.model.make_context(0.0);
  net.model.initialize(ctx);
  SolverSettings s = solver_settings_from_json(net.solver, {});
  s.t_end = t;
  s.output_interval = t;
  SolverStats stats;
  Quiet quiet;
  simulate(net.model, ctx, s, quiet, stats);
  net.model.evaluate(ctx);
  return ctx;
}

// Forward differences of the whole model, column j with step h_j: the quotient a
// solver's own dense Jacobian takes (at a kink, such as a spool resting on its lap edge,
// both this and the assembly see the side the step goes to).
Eigen::MatrixXd whole_model_jacobian(const Model& model, Context ctx, const Eigen::VectorXd& h) {
  const int n = model.state_count();
  Eigen::MatrixXd J(n, n);
  const Eigen::VectorXd x = ctx.x;
  model.derivatives(ctx, ctx.t, x);
  const Eigen::VectorXd f = ctx.xdot;
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd up = x;
    up[j] += h[j];
    model.derivatives(ctx, ctx.t, up);
    J.col(j) = (ctx.xdot - f) / (up[j] - x[j]);
  }
  return J;
}

// The assembled Jacobian against the whole model's, entry by entry, in units of the
// change of f_i when state j moves by its typical size δ_j (|x_j|, at least 1e-6): the
// error |A_ij − B_ij| δ_j is within 1e-4 of the entry's own |B_ij| δ_j, or within 1e-6
// of the row's largest such change, or within the rounding error of a quotient (ε |f_i|
// / δ_j, in these units 10 √ε |f_i|). Both are forward difference quotients with steps of
// √ε-relative size: where the functions are smooth they agree to about √ε relative,
// their truncation errors differing in the second-order terms.
void check_against_whole_model(const std::string& name, const std::string& netlist_text, double t) {
  Netlist net = jourdain::test::load(netlist_text);
  Context ctx = state_at(net, t);
  const int n = net.model.state_count();
  Eigen::VectorXd size(n), inc(n);
  for (int j = 0; j < n; ++j) size[j] = std::max(std::abs(ctx.x[j]), 1e-6);
  inc = std::sqrt(DBL_EPSILON) * size;
  const Eigen::VectorXd y0 = ctx.y, u0 = ctx.unknowns, xdot0 = ctx.xdot, x0 = ctx.x;
  ComponentJacobian jac(net.model);
  jac.assemble(ctx, inc);
  // Nothing of the point moved.
  CHECK(ctx.x == x0);
  CHECK(ctx.y == y0);
  CHECK(ctx.unknowns == u0);
  CHECK(ctx.xdot == xdot0);
  const Eigen::MatrixXd A = jac.dense();
  const Eigen::MatrixXd B = whole_model_jacobian(net.model, ctx, inc);
  const auto names = net.model.state_names();
  const Eigen::MatrixXd change = B.cwiseAbs() * size.asDiagonal();
  const Eigen::VectorXd row_change = change.rowwise().maxCoeff();
  int checked = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double error = std::abs(A(i, j) - B(i, j)) * size[j];
      const double rounding = 10.0 * std::sqrt(DBL_EPSILON) * std::abs(xdot0[i]);  // ε |f_i| / h_j, times size_j
      const double tol = std::max({1e-4 * change(i, j), 1e-6 * row_change[i], rounding});
      if (error > tol) {
        std::string where = name + ": d(" + names[i] + ")/d(" + names[j] + ")";
        CAPTURE(where);
        CAPTURE(A(i, j));
        CAPTURE(B(i, j));
        CHECK(error <= tol);
      }
      ++checked;
    }
  CHECK(checked == n * n);
  CHECK(jac.calls() > 0);
}

void check_example(const std::string& name, double t) {
  check_against_whole_model(name, jourdain::test::read_text(jourdain::test::netlist_path(name)), t);
}

}  // namespace

TEST_CASE("ComponentJacobian: equals the whole model's Jacobian on hydraulic and mechanical examples") {
  SUBCASE("position servo") { check_example("position_servo", 1.0); }
  SUBCASE("press, pressing") { check_example("press_3150kN", 12.0); }
  SUBCASE("driveline: speed source, shaft, rotor, damper") {
    const char* driveline = R"({"name": "driveline",
      "components": {
        "src": {"type": "rotational.speed_source", "params": {"speed": "50 rad/s"}},
        "ts": {"type": "rotational.torque_sensor"},
        "shaft": {"type": "rotational.shaft", "params": {"stiffness": 500, "damping": 2}},
        "rotor": {"type": "rotational.inertia", "params": {"inertia": 0.05}},
        "damper": {"type": "rotational.shaft", "params": {"stiffness": 0, "damping": 0.1}},
        "wall": {"type": "rotational.fixed"}},
      "connections": [["src.flange", "ts.a"], ["ts.b", "shaft.a"], ["shaft.b", "rotor.a"], ["rotor.b", "damper.a"],
                      ["damper.b", "wall.flange"]],
      "solver": {"method": "bdf", "t_end": 2, "rtol": 1e-10, "atol": 1e-12}})";
    check_against_whole_model("driveline", driveline, 0.3);
  }
}
