// Files replaced whole or not at all (files.hpp).
#include "jourdain/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "jourdain/errors.hpp"

namespace jourdain {

ReplacingFile::ReplacingFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path folder = target_.has_parent_path() ? target_.parent_path() : ".";
  std::random_device random;
  // O_EXCL: the name is this write's alone, so removing it can never remove another's.
  for (int attempt = 0; attempt < 16 && partial_.empty(); ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".%08x.part", static_cast<unsigned>(random()));
    const std::filesystem::path candidate = folder / ("." + target_.filename().string() + suffix);
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      partial_ = candidate;
    } else if (errno != EEXIST) {
      throw OutputError(target_.string(), std::string("cannot create the file: ") + std::strerror(errno));
    }
  }
  if (partial_.empty()) throw OutputError(target_.string(), "cannot create the file: no free temporary name beside it");
}

ReplacingFile::~ReplacingFile() {
  if (partial_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(partial_, ec);
}

void ReplacingFile::commit() {
  std::error_code ec;
  std::filesystem::rename(partial_, target_, ec);
  if (ec) throw OutputError(target_.string(), "cannot write the file: " + ec.message());
  partial_.clear();
}

}  // namespace jourdain
