import CratesApp
import CratesCore
import CratesStore

/// A catalogue build's progress on standard error: on a terminal, a bar redrawn in place with
/// the bytes read, releases per second and the time left; otherwise a plain line every
/// `plainInterval` seconds (`StatusLine`), both timed by the build's own seconds.
struct CatalogueBuildProgress {
    let line = StatusLine()

    func show(_ progress: CatalogueBuild.Progress) {
        guard line.due(at: progress.seconds) else { return }
        let rate = progress.seconds > 0 ? Double(progress.releases) / progress.seconds : 0
        var left = ""
        if let size = progress.fileSize, size > 0, progress.fileBytesRead > 0, progress.seconds > 2 {
            let remaining = Double(size - progress.fileBytesRead) / (Double(progress.fileBytesRead) / progress.seconds)
            left = ProgressText.duration(max(0, remaining)) + " left"
        }
        let read = ByteCount.text(progress.fileBytesRead) + (progress.fileSize.map { " of " + ByteCount.text($0) } ?? "")
        guard line.terminal else {
            return line.show(
                "catalogue: \(read) read, \(progress.releases) releases, \(Int(rate)) releases/s"
                    + (left.isEmpty ? "" : ", about " + left) + (progress.skipped > 0 ? ", \(progress.skipped) skipped" : ""))
        }
        let bar = progress.fileSize.map { ProgressText.bar(Int(progress.fileBytesRead / 1024), Int($0 / 1024), width: 20) + " " } ?? ""
        line.show(
            "Building \(bar)\(read) · \(NumberText.grouped(progress.releases)) releases · \(NumberText.grouped(Int(rate)))/s"
                + (left.isEmpty ? "" : " · " + left) + (progress.skipped > 0 ? " · \(progress.skipped) skipped" : ""))
    }

    /// Ends the bar's line.
    func finish() { line.finish() }
}
