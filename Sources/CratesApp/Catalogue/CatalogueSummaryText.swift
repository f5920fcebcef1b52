import CratesCore
import CratesStore
import Foundation

/// The words `crates catalogue build`, `fetch` and `status` print about a catalogue.
public enum CatalogueSummaryText {
    /// What a completed build says.
    public static func summary(_ summary: CatalogueSummary) -> String {
        let rate = summary.seconds > 0 ? Int(Double(summary.releases) / summary.seconds) : summary.releases
        var lines = [
            "Built the Discogs catalogue of \(summary.edition): \(NumberText.grouped(summary.releases)) releases, "
                + "\(NumberText.grouped(summary.barcodes)) barcodes, \(ByteCount.text(summary.bytes)), in "
                + "\(duration(summary.seconds)) (\(NumberText.grouped(rate)) releases/s).",
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
            "Releases:  \(NumberText.grouped(summary.releases))",
            "Barcodes:  \(NumberText.grouped(summary.barcodes))",
            "Size:      \(ByteCount.text(summary.bytes)) (\(summary.releases > 0 ? Int(summary.bytes) / summary.releases : 0) bytes a release)",
            "Built:     \(CatalogueSummary.timestamp(summary.builtAt)), in \(duration(summary.seconds))",
            "Skipped:   \(NumberText.grouped(summary.skipped))",
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
        var lines = ["Skipped \(NumberText.grouped(summary.skipped)) \(noun) that could not be read:"]
        lines += summary.skippedReleases.map { "  " + $0 }
        if summary.skipped > summary.skippedReleases.count {
            lines.append("  … and \(NumberText.grouped(summary.skipped - summary.skippedReleases.count)) more")
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
}
