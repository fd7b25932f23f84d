// ComponentJacobian (framework/include/jourdain/jacobian.hpp): the Jacobian whose columns
// evaluate only their states' cones equals the whole model's difference quotients, taken
// here by Model::derivatives (which knows nothing of cones), on example netlists mid-run,
// where valves are open, bodies move and blocks are solved; it costs fewer hook calls;
// and it leaves the Context's values as it found them.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "jourdain/jacobian.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

// Forward differences of the whole model, column j with step h_j, formed as CVODE's dense
// quotient forms them: (1/h_j) (f(x + h_j e_j) − f(x)).
Eigen::MatrixXd whole_model_jacobian(const Model& model, Context ctx, const Eigen::VectorXd& h) {
  const int n = model.state_count();
  Eigen::MatrixXd J(n, n);
  const Eigen::VectorXd x = ctx.x;
  model.derivatives(ctx, ctx.t, x);
  const Eigen::VectorXd f = ctx.xdot;
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd moved = x;
    moved[j] += h[j];
    model.derivatives(ctx, ctx.t, moved);
    const double inv = 1.0 / h[j];
    J.col(j) = inv * (ctx.xdot - f);
  }
  return J;
}

// The cones' Jacobian against the whole model's at the state `t` into the netlist's run,
// with increments √ε max(|x_j|, 1e-6): bit for bit the same matrix where the model has no
// implicit block; with one (a mechanism), each column's block solve restarts from the
// unmoved point's unknowns, so the entries agree to the solver's tolerance, relative to
// the row's largest (1e-6).
void check_against_whole_model(const std::string& name, const std::string& netlist_text, double t) {
  Netlist net = jourdain::test::load(netlist_text);
  Context ctx = jourdain::test::state_at(net, t);
  const int n = net.model.state_count();
  Eigen::VectorXd inc(n);
  for (int j = 0; j < n; ++j) inc[j] = std::sqrt(DBL_EPSILON) * std::max(std::abs(ctx.x[j]), 1e-6);
  net.model.derivatives(ctx, ctx.t, Eigen::VectorXd(ctx.x));
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
  const bool blocks = net.model.schedule().loop_count() > 0 || net.model.unknown_count() > 0;
  const Eigen::VectorXd row_scale = B.cwiseAbs().rowwise().maxCoeff();
  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double tol = blocks ? 1e-6 * row_scale[i] : 0.0;
      if (std::abs(A(i, j) - B(i, j)) > tol) {
        std::string where = name + ": d(" + names[i] + ")/d(" + names[j] + ")";
        CAPTURE(where);
        CAPTURE(A(i, j));
        CAPTURE(B(i, j));
        CHECK(std::abs(A(i, j) - B(i, j)) <= tol);
        ++mismatches;
      }
    }
  CHECK(mismatches == 0);
  // Cheaper than the whole model's n evaluations.
  CHECK(jac.calls() < static_cast<long>(n) * jac.calls_per_evaluation());
  MESSAGE(name << ": " << jac.calls() << " hook calls, " << n << " x " << jac.calls_per_evaluation()
               << " for the whole model");
}

void check_example(const std::string& name, double t) {
  check_against_whole_model(name, jourdain::test::read_text(jourdain::test::netlist_path(name)), t);
}

}  // namespace

TEST_CASE("ComponentJacobian: equals the whole model's Jacobian on hydraulic and mechanical examples") {
  SUBCASE("position servo") { check_example("position_servo", 1.0); }
  SUBCASE("press, pressing") { check_example("press_3150kN", 12.0); }
  SUBCASE("electro-hydraulic actuator") {
    for (double t : {0.5, 1.7, 3.1, 5.2}) check_example("electro_hydraulic_actuator", t);
  }
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
  SUBCASE("hydraulic excavator: a mechanism block") { check_example("excavator_hydraulic", 3.0); }
}
