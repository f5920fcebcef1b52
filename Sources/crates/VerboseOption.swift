import ArgumentParser
import CratesNet

/// `--verbose`, for the commands that talk to Discogs or to the camera daemon's socket, and
/// the catalogue's build: the raw detail behind a message (what a server sent instead of an
/// answer, libcurl's or SQLite's own text, a system call and its errno) on standard error as
/// it happens. Messages never quote it.
struct VerboseOption: ParsableArguments {
    @Flag(help: "Also print the raw detail behind a failure (a server's answer, libcurl's or the system's text) on standard error.")
    var verbose = false

    /// Installs the sink when asked: each detail one line, "crates COMMAND: detail: …".
    func install(_ command: String) {
        guard verbose else { return }
        Diagnostics.install { detail in StandardStreams.errLine("crates \(command): detail: \(detail)") }
    }
}
