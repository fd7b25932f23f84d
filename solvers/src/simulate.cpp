// Method dispatch (simulate.hpp).
#include "jourdain/solvers/simulate.hpp"

#include <cmath>
#include <memory>
#include <sstream>

#include "explicit_driver.hpp"

namespace jourdain {
namespace detail {
std::unique_ptr<OneStepMethod> make_rk4();
std::unique_ptr<OneStepMethod> make_dopri5(const SolverSettings& s);
void integrate_cvode(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer, SolverStats& stats);
}  // namespace detail

void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats) {
  // The methods count output times and steps over [t_start, t_end]: a non-finite or
  // empty span has no meaning (and made the output count undefined).
  if (!(std::isfinite(settings.t_start) && std::isfinite(settings.t_end - settings.t_start) &&
        settings.t_end > settings.t_start)) {
    std::ostringstream what;
    what << "t_start and t_end must be finite, with t_end after t_start (t_start = " << settings.t_start
         << " s, t_end = " << settings.t_end << " s)";
    throw InputError({"", "/solver", "", ""}, what.str());
  }
  stats.method = settings.method;
  stats.last_time = ctx.t;
  observer.output(ctx);  // the initial point
  if (settings.method == "bdf") {
    detail::integrate_cvode(model, ctx, settings, observer, stats);
    return;
  }
  auto method = settings.method == "rk4" ? detail::make_rk4() : detail::make_dopri5(settings);
  detail::integrate_explicit(*method, model, ctx, settings, observer, stats);
}

}  // namespace jourdain
