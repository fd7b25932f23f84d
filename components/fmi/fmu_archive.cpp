// Zip archives (minizip), temporary folders and file URIs (jourdain/components/fmi.hpp).
#include <stdlib.h>
#include <unzip.h>
#include <zip.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>

#include "jourdain/components/fmi.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::fmi {

namespace {

// Bounds on what an archive may unpack to, counted on the bytes actually inflated (a
// header's sizes can lie): a zip bomb (a few kilobytes that inflate to gigabytes, or a
// million entries) is refused, saying which bound it met, instead of exhausting memory
// or the disk. Far above any real FMU: its binaries are megabytes, its description a
// few, its files some hundreds.
constexpr std::uint64_t kMaxEntryBytes = std::uint64_t{512} << 20;  // one entry, unpacked
constexpr std::uint64_t kMaxArchiveBytes = std::uint64_t{1} << 30;  // all of them
constexpr long kMaxEntries = 10'000;

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// An open archive, closed when the object goes.
struct ZipReader {
  unzFile file = nullptr;
  explicit ZipReader(const std::filesystem::path& archive) {
    std::error_code ec;
    const auto status = std::filesystem::status(archive, ec);
    if (!std::filesystem::exists(status)) throw FmuError("no such file");
    if (!std::filesystem::is_regular_file(status)) throw FmuError("not a regular file (an FMU is a zip archive)");
    file = unzOpen64(archive.c_str());
    if (!file) throw FmuError("not a zip archive (an FMU is one): the file cannot be opened as one");
  }
  ~ZipReader() {
    if (file) unzClose(file);
  }
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;

  std::string current_name() const {
    unz_file_info64 info;
    if (unzGetCurrentFileInfo64(file, &info, nullptr, 0, nullptr, 0, nullptr, 0) != UNZ_OK)
      throw FmuError("damaged zip archive (an entry's header cannot be read)");
    std::string name(info.size_filename, '\0');
    unzGetCurrentFileInfo64(file, &info, name.data(), static_cast<uLong>(name.size()), nullptr, 0, nullptr, 0);
    // The file system would cut the name at a NUL: "x.so\0a" would be unpacked onto
    // "x.so", past the check for two entries of one name, and be the binary loaded.
    if (const size_t nul = name.find('\0'); nul != std::string::npos)
      throw FmuError("entry '" + name.substr(0, nul) + "\\0...' has a NUL byte in its name");
    return name;
  }
  // The current entry's bytes, at most kMaxEntryBytes and what is left of `budget` (the
  // archive's bound, counted down).
  std::string read_current(const std::string& name, std::uint64_t& budget) const {
    if (unzOpenCurrentFile(file) != UNZ_OK) throw FmuError("damaged zip archive (entry '" + name + "' cannot be opened)");
    std::string out;
    char buffer[1 << 16];
    int n = 0;
    while ((n = unzReadCurrentFile(file, buffer, sizeof buffer)) > 0) {
      out.append(buffer, static_cast<size_t>(n));
      const bool entry_too_large = out.size() > kMaxEntryBytes, archive_too_large = out.size() > budget;
      if (entry_too_large || archive_too_large) {
        unzCloseCurrentFile(file);
        throw FmuError("entry '" + name + "' unpacks to more than " +
                       (entry_too_large ? mib(kMaxEntryBytes) + ", the limit for one entry"
                                        : "the archive's limit of " + mib(kMaxArchiveBytes) + " unpacked in all") +
                       " (a zip bomb, or no FMU)");
      }
    }
    budget -= out.size();
    // A CRC mismatch shows at the close.
    const int closed = unzCloseCurrentFile(file);
    if (n < 0 || closed != UNZ_OK) throw FmuError("damaged zip archive (entry '" + name + "' cannot be read)");
    return out;
  }
  template <class Visit>
  void each(Visit&& visit) const {
    int status = unzGoToFirstFile(file);
    if (status != UNZ_OK) throw FmuError("damaged zip archive (its directory cannot be read)");
    long entries = 0;
    for (; status == UNZ_OK; status = unzGoToNextFile(file)) {
      if (++entries > kMaxEntries)
        throw FmuError("the archive holds more than " + std::to_string(kMaxEntries) + " entries, the limit (a zip bomb, or no FMU)");
      visit(current_name());
    }
    if (status != UNZ_END_OF_LIST_OF_FILE) throw FmuError("damaged zip archive (its directory cannot be read)");
  }
};

}  // namespace

std::vector<std::string> zip_entries(const std::filesystem::path& archive) {
  ZipReader zip(archive);
  std::vector<std::string> names;
  zip.each([&](const std::string& name) { names.push_back(name); });
  return names;
}

std::string read_zip_entry(const std::filesystem::path& archive, const std::string& entry) {
  ZipReader zip(archive);
  if (unzLocateFile(zip.file, entry.c_str(), 1) != UNZ_OK) throw FmuError("the archive holds no '" + entry + "'");
  std::uint64_t budget = kMaxArchiveBytes;
  return zip.read_current(entry, budget);
}

void extract_zip(const std::filesystem::path& archive, const std::filesystem::path& folder) {
  ZipReader zip(archive);
  std::uint64_t budget = kMaxArchiveBytes;
  std::set<std::filesystem::path> unpacked;
  zip.each([&](const std::string& name) {
    const std::filesystem::path relative = std::filesystem::path(name).lexically_normal();
    // Two entries of one name: which one the FMU's binary is would depend on the order.
    if (!unpacked.insert(relative).second)
      throw FmuError("the archive holds two entries named '" + name + "': which one is meant is not clear");
    if (relative.empty() || relative.is_absolute() || *relative.begin() == "..")
      throw FmuError("entry '" + name + "' would be written outside the folder it is unpacked into");
    const std::filesystem::path target = folder / relative;
    // Where an entry "a/b" follows a file entry "a", or the name is too long for the file
    // system: the archive's fault, said as such (not a std::filesystem error).
    auto make_folder = [&](const std::filesystem::path& path) {
      std::error_code ec;
      std::filesystem::create_directories(path, ec);
      if (ec) throw FmuError("entry '" + name + "' cannot be unpacked: " + ec.message() + " (" + path.string() + ")");
    };
    if (!name.empty() && name.back() == '/') {  // a folder entry
      make_folder(target);
      return;
    }
    make_folder(target.parent_path());
    const std::string bytes = zip.read_current(name, budget);
    std::ofstream out(target, std::ios::binary);
    if (!(out << bytes) || !out.flush()) throw FmuError("cannot write " + target.string());
  });
}

// ------------------------------------------------------------------ ZipWriter

ZipWriter::ZipWriter(const std::filesystem::path& archive) : path_(archive) {
  // What is at the target is replaced only by a complete archive (files.hpp), and only if
  // it is a file: a symlink, a device or a folder there is refused, never removed.
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(archive, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw FmuError("cannot write the archive " + archive.string() + ": " +
                   (std::filesystem::is_symlink(status) ? "it is a symbolic link"
                    : std::filesystem::is_directory(status) ? "it is a folder"
                                                            : "it is no regular file") +
                   " (only a regular file is replaced)");
  try {
    file_ = std::make_unique<ReplacingFile>(archive);
  } catch (const OutputError& e) {
    throw FmuError(std::string("cannot create the archive: ") + e.what());
  }
  zip_ = zipOpen64(file_->partial().c_str(), APPEND_STATUS_CREATE);
  if (!zip_) throw FmuError("cannot create the archive " + archive.string());
}

ZipWriter::~ZipWriter() {
  if (!zip_) return;
  zipClose(static_cast<zipFile>(zip_), nullptr);
  // file_ goes with this object: never a half-written archive, the target untouched.
}

void ZipWriter::add(const std::string& entry, const std::string& content, bool fast) {
  zip_fileinfo info{};
  const std::time_t now = std::time(nullptr);
  if (const std::tm* t = std::localtime(&now)) {
    info.tmz_date = {static_cast<uInt>(t->tm_sec),  static_cast<uInt>(t->tm_min), static_cast<uInt>(t->tm_hour),
                     static_cast<uInt>(t->tm_mday), static_cast<uInt>(t->tm_mon), static_cast<uInt>(t->tm_year + 1900)};
  }
  auto* zip = static_cast<zipFile>(zip_);
  const bool large = content.size() >= 0xffffffffu;
  if (zipOpenNewFileInZip64(zip, entry.c_str(), &info, nullptr, 0, nullptr, 0, nullptr, Z_DEFLATED,
                            fast ? Z_BEST_SPEED : Z_DEFAULT_COMPRESSION, large ? 1 : 0) != ZIP_OK)
    throw FmuError("cannot add '" + entry + "' to " + path_.string());
  for (size_t at = 0; at < content.size();) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(content.size() - at, 1u << 30));
    if (zipWriteInFileInZip(zip, content.data() + at, chunk) != ZIP_OK)
      throw FmuError("cannot write '" + entry + "' into " + path_.string());
    at += chunk;
  }
  if (zipCloseFileInZip(zip) != ZIP_OK) throw FmuError("cannot write '" + entry + "' into " + path_.string());
}

void ZipWriter::add_file(const std::string& entry, const std::filesystem::path& file, bool fast) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FmuError("cannot read " + file.string());
  add(entry, std::string(std::istreambuf_iterator<char>(in), {}), fast);
}

void ZipWriter::close() {
  auto* zip = static_cast<zipFile>(zip_);
  zip_ = nullptr;
  if (zipClose(zip, nullptr) != ZIP_OK) throw FmuError("cannot complete the archive " + path_.string());
  try {
    file_->commit();
  } catch (const OutputError& e) {
    throw FmuError(std::string("cannot complete the archive: ") + e.what());
  }
}

// ------------------------------------------------------------------ TemporaryFolder

TemporaryFolder::TemporaryFolder(const std::string& prefix) {
  std::error_code ec;
  std::string pattern = (std::filesystem::temp_directory_path(ec) / (prefix + "XXXXXX")).string();
  if (ec || !mkdtemp(pattern.data())) throw FmuError("cannot create a temporary folder (" + pattern + ")");
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

// ------------------------------------------------------------------ file URIs

std::string file_uri(const std::filesystem::path& folder) {
  static const char* hex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : std::filesystem::absolute(folder).string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

std::filesystem::path path_of_file_uri(const std::string& uri) {
  if (uri.rfind("file:", 0) != 0) throw FmuError("'" + uri + "' is no file: URI");
  std::string rest = uri.substr(5);
  if (rest.rfind("//", 0) == 0) {  // an authority: empty or localhost
    const size_t slash = rest.find('/', 2);
    const std::string host = rest.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
    if (!host.empty() && host != "localhost") throw FmuError("'" + uri + "' names another host");
    rest = slash == std::string::npos ? "/" : rest.substr(slash);
  }
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
      path += static_cast<char>(std::stoi(rest.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

std::string platform_folder() { return "linux64"; }

std::string binary_entry(const std::string& model_identifier) {
  return "binaries/" + platform_folder() + "/" + model_identifier + ".so";
}

}  // namespace jourdain::fmi
