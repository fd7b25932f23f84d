#!/usr/bin/env python3
"""Writes the seed archives of fuzz_fmu_archive (tests/fuzz/README.md) into corpus/, and
the archives of the bugs found while writing the harness into regressions/.

Kept small (a few hundred bytes each: libFuzzer mutates small inputs best, and they are
committed): a valid FMU whose binary is a stand-in of a few bytes (the harness never loads
one), and one archive per kind of hostile input the reader must refuse or contain. Run it
again after changing it; the archives are committed, not made at build time.
"""
import pathlib
import struct
import warnings
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
REGRESSIONS = HERE / "regressions"
GAIN_COUNTER_XML = HERE.parents[1] / "components" / "fmi" / "gain_counter.xml"
# Fixed times: the same script writes the same bytes.
DATE = (2024, 1, 1, 0, 0, 0)
SMALL_XML = (b'<?xml version="1.0"?><fmiModelDescription fmiVersion="2.0" modelName="m" guid="g">'
             b'<CoSimulation modelIdentifier="m"/><ModelVariables><ScalarVariable name="y" '
             b'valueReference="0" causality="output"><Real/></ScalarVariable></ModelVariables>'
             b'</fmiModelDescription>')


def entry(name, compress=zipfile.ZIP_DEFLATED, mode=0o100644):
    info = zipfile.ZipInfo(name, DATE)
    info.compress_type = compress
    info.external_attr = mode << 16
    return info


def write(file, entries, folder=CORPUS):
    """entries: (name or ZipInfo, bytes), in archive order (duplicates allowed)."""
    path = folder / file
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as z:
        warnings.simplefilter("ignore")  # "Duplicate name": meant
        for name, data in entries:
            z.writestr(name if isinstance(name, zipfile.ZipInfo) else entry(name), data)
    return path


def patch(path, old, new):
    """Replaces `old` by `new` (same length) everywhere in the file: in the local header
    and in the central directory alike."""
    assert len(old) == len(new)
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new))


def main():
    CORPUS.mkdir(exist_ok=True)
    REGRESSIONS.mkdir(exist_ok=True)
    fake_binary = b"\x7fELF not a binary: the harness never loads one\n"
    write("gain_counter.fmu", [
        ("modelDescription.xml", GAIN_COUNTER_XML.read_bytes()),
        (entry("binaries/", mode=0o40755), b""),
        (entry("binaries/linux64/", mode=0o40755), b""),
        ("binaries/linux64/gain_counter.so", fake_binary),
        (entry("resources/", mode=0o40755), b""),
        (entry("resources/table.txt", zipfile.ZIP_STORED), b"0 1\n1 2\n"),
    ])
    write("stored_small.fmu", [(entry("modelDescription.xml", zipfile.ZIP_STORED), SMALL_XML)])
    write("zip_slip.fmu", [("modelDescription.xml", SMALL_XML), ("resources/../../escaped.txt", b"out")])
    write("absolute_name.fmu", [("modelDescription.xml", SMALL_XML), ("/tmp/jourdain-absolute.txt", b"out")])
    write("duplicate_entries.fmu", [("modelDescription.xml", SMALL_XML), ("modelDescription.xml", b"<other/>")])
    write("same_name_normalised.fmu", [("binaries/linux64/m.so", b"a"), ("binaries/./linux64//m.so", b"b")])
    write("symlink_entry.fmu", [("modelDescription.xml", SMALL_XML),
                                (entry("resources/link", zipfile.ZIP_STORED, mode=0o120777), b"/etc/passwd")])
    # An entry below a file entry: std::filesystem threw from extract_zip.
    write("entry_below_file_entry.fmu", [("resources", b"a file"), ("resources/table.txt", b"0 1\n")], REGRESSIONS)
    # A NUL inside a name: the name the archive lists is not the file C would open, and
    # the check for two entries of one name did not see them.
    patch(write("nul_in_entry_name.fmu", [("modelDescription.xml#.txt", SMALL_XML), ("modelDescription.xml", SMALL_XML)],
                REGRESSIONS),
          b"modelDescription.xml#", b"modelDescription.xml\0")
    # 1 MiB of zeros deflated to about a kilobyte: what a zip bomb is made of.
    write("deflate_ratio.fmu", [("modelDescription.xml", SMALL_XML), ("resources/zeros", bytes(1 << 20))])
    # Sizes that lie: the headers declare 4 GiB - 1 unpacked for a few stored bytes.
    path = write("huge_declared_size.fmu", [(entry("modelDescription.xml", zipfile.ZIP_STORED), SMALL_XML)])
    size = struct.pack("<I", len(SMALL_XML))
    patch(path, size + size, size + struct.pack("<I", 0xFFFFFFFF))
    for folder in (CORPUS, REGRESSIONS):
        print("\n".join(f"{p.relative_to(HERE)}: {p.stat().st_size} bytes" for p in sorted(folder.iterdir())))


if __name__ == "__main__":
    main()
