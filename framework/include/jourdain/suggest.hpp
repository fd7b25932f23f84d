// "Did you mean ...": the candidate closest to a name that was not found, for messages.
#pragma once

#include <string>
#include <vector>

namespace jourdain {

// The candidate nearest to `name` in edit distance (insertions, deletions, substitutions)
// if it is close enough to be a typo: at most a third of the name wrong, and at least two
// edits allowed so that short names ("bfd" -> "bdf") are found. Empty: none is.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" with closest_name's candidate, or "" when none is close: the tail
// of a message about a name that was not found.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

// "a, b, c": the names a message lists.
std::string comma_list(const std::vector<std::string>& names);

}  // namespace jourdain
