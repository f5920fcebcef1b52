import CratesCore
import CratesStore
import Foundation
import Synchronization

/// A catalogue build's progress on standard error: on a terminal, a bar redrawn in place with
/// the bytes read, releases per second and the time left; otherwise a plain line every
/// `plainInterval` seconds. And the words `crates catalogue build` and `status` print.
public final class CatalogueProgress: Sendable {
    public let terminal: Bool
    public let plainInterval: Double
    private let state = Mutex<(lastDraw: Double, lastPlain: Double, shown: Bool)>((-1, -1, false))

    public init(terminal: Bool = StandardStreams.errorIsTerminal, plainInterval: Double = 10) {
        self.terminal = terminal
        self.plainInterval = plainInterval
    }

    public func show(_ progress: CatalogueBuild.Progress) {
        let rate = progress.seconds > 0 ? Double(progress.releases) / progress.seconds : 0
        var left = ""
        if let size = progress.fileSize, size > 0, progress.fileBytesRead > 0, progress.seconds > 2 {
            let remaining = Double(size - progress.fileBytesRead) / (Double(progress.fileBytesRead) / progress.seconds)
            left = ProgressText.duration(max(0, remaining)) + " left"
        }
        let read = ByteCount.text(progress.fileBytesRead) + (progress.fileSize.map { " of " + ByteCount.text($0) } ?? "")
        let skipped = progress.skipped > 0 ? " · \(progress.skipped) skipped" : ""
        if terminal {
            let due = state.withLock { state -> Bool in
                guard progress.seconds - state.lastDraw >= 0.2 else { return false }
                state.lastDraw = progress.seconds
                state.shown = true
                return true
            }
            guard due else { return }
            let bar = progress.fileSize.map { ProgressText.bar(Int(progress.fileBytesRead / 1024), Int($0 / 1024), width: 20) + " " } ?? ""
            let line = "Building \(bar)\(read) · \(Self.grouped(progress.releases)) releases · \(Self.grouped(Int(rate)))/s"
                + (left.isEmpty ? "" : " · " + left) + skipped
            let width = max(10, StandardStreams.terminalWidth - 1)
            let shown = line.count > width ? String(line.prefix(width - 1)) + "…" : line
            StandardStreams.err("\r\u{1B}[K" + shown)
        } else {
            let due = state.withLock { state -> Bool in
                guard state.lastPlain < 0 || progress.seconds - state.lastPlain >= plainInterval else { return false }
                state.lastPlain = progress.seconds
                return true
            }
            guard due else { return }
            StandardStreams.errLine(
                "catalogue: \(read) read, \(progress.releases) releases, \(Int(rate)) releases/s"
                    + (left.isEmpty ? "" : ", about " + left) + (progress.skipped > 0 ? ", \(progress.skipped) skipped" : ""))
        }
    }

    /// Ends the bar's line.
    public func finish() {
        let shown = state.withLock { state -> Bool in
            defer { state.shown = false }
            return state.shown
        }
        if shown { StandardStreams.err("\r\u{1B}[K") }
    }

    /// What a completed build says.
    public static func summary(_ summary: CatalogueSummary) -> String {
        let rate = summary.seconds > 0 ? Int(Double(summary.releases) / summary.seconds) : summary.releases
        var lines = [
            "Built the Discogs catalogue of \(summary.edition): \(grouped(summary.releases)) releases, "
                + "\(grouped(summary.barcodes)) barcodes, \(ByteCount.text(summary.bytes)), in "
                + "\(duration(summary.seconds)) (\(grouped(rate)) releases/s).",
        ]
        lines += skippedLines(summary)
        lines.append("Catalogue: \(summary.path)")
        return lines.joined(separator: "\n")
    }

    /// `crates catalogue status`.
    public static func status(_ summary: CatalogueSummary) -> String {
        var lines = [
            "Catalogue: \(summary.path)",
            "Dump:      Discogs' data of \(summary.edition)",
            "Releases:  \(grouped(summary.releases))",
            "Barcodes:  \(grouped(summary.barcodes))",
            "Size:      \(ByteCount.text(summary.bytes)) (\(summary.releases > 0 ? Int(summary.bytes) / summary.releases : 0) bytes a release)",
            "Built:     \(CatalogueSummary.timestamp(summary.builtAt)), in \(duration(summary.seconds))",
            "Skipped:   \(grouped(summary.skipped))",
        ]
        if summary.skipped > 0 { lines += summary.skippedReleases.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    /// `crates catalogue status --json`.
    public static func json(_ summary: CatalogueSummary) -> String {
        let q = JSONStringLiteral.quoted
        return "{\"path\":\(q(summary.path)),\"date\":\(q(summary.edition.description)),\"releases\":\(summary.releases),"
            + "\"barcodes\":\(summary.barcodes),\"bytes\":\(summary.bytes),\"builtAt\":\(q(CatalogueSummary.timestamp(summary.builtAt))),"
            + "\"seconds\":\(String(format: "%.1f", summary.seconds)),\"skipped\":\(summary.skipped)}"
    }

    private static func skippedLines(_ summary: CatalogueSummary) -> [String] {
        guard summary.skipped > 0 else { return [] }
        let noun = summary.skipped == 1 ? "release" : "releases"
        var lines = ["Skipped \(grouped(summary.skipped)) \(noun) that could not be read:"]
        lines += summary.skippedReleases.map { "  " + $0 }
        if summary.skipped > summary.skippedReleases.count {
            lines.append("  … and \(grouped(summary.skipped - summary.skippedReleases.count)) more")
        }
        return lines
    }

    /// "12.3 s", "4 min 05 s", "1 h 12 min".
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let s = Int(seconds.rounded())
        if s < 3600 { return "\(s / 60) min \(String(format: "%02d", s % 60)) s" }
        return "\(s / 3600) h \(String(format: "%02d", s / 60 % 60)) min"
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ number: Int) -> String {
        let digits = String(abs(number))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return number < 0 ? "-" + out : out
    }
}
