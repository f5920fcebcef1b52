import CratesCore
import Foundation

/// A catalogue file for the tests that run the `crates` binary: a releases dump written with
/// the releases given (each with its barcodes, in the 2025 format), then built by the binary
/// itself (`crates catalogue build`), so that the tests open it through the product's one way
/// in (`openReleaseCatalogue(path:)`, `--catalogue PATH`).
public enum CatalogueFixture {
    /// Builds a catalogue of `releases` at `path`, dated `edition` (`YYYYMMDD`).
    public static func build(
        _ releases: [(release: Release, barcodes: [GTIN])], edition: String = "20260601", at path: String
    ) async throws {
        let dump = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("fixture-releases.xml")
        try Data(dumpXML(releases).utf8).write(to: dump)
        let result = try await ProcessRunner.crates(["catalogue", "build", "--date", edition, "--catalogue", path, dump.path])
        guard result.status == 0 else { throw Failed(result: "\(result)") }
    }

    /// The releases as Discogs' dump writes them: one `<release>` a line inside `<releases>`;
    /// a release whose JSON names its master (`Release.masterID`) has its `<master_id>`.
    public static func dumpXML(_ releases: [(release: Release, barcodes: [GTIN])]) -> String {
        var xml = "<releases>"
        for (release, barcodes) in releases {
            xml += "<release id=\"\(release.id)\">"
            xml += "<artists><artist><id>\(release.id)</id><name>\(escaped(release.artist))</name></artist></artists>"
            xml += "<title>\(escaped(release.title))</title>"
            if !release.labels.isEmpty {
                xml += "<labels>" + release.labels.map {
                    "<label name=\"\(escaped($0.name))\" catno=\"\(escaped($0.catno ?? "none"))\" id=\"1\"/>"
                }.joined() + "</labels>"
            }
            if !release.formats.isEmpty {
                xml += "<formats>" + release.formats.map { format in
                    let parts = format.components(separatedBy: ", ")
                    let descriptions = parts.dropFirst().map { "<description>\(escaped($0))</description>" }.joined()
                    return "<format name=\"\(escaped(parts[0]))\" qty=\"1\" text=\"\">"
                        + (descriptions.isEmpty ? "" : "<descriptions>\(descriptions)</descriptions>") + "</format>"
                }.joined() + "</formats>"
            }
            if !release.genres.isEmpty { xml += "<genres>" + release.genres.map { "<genre>\(escaped($0))</genre>" }.joined() + "</genres>" }
            if !release.styles.isEmpty { xml += "<styles>" + release.styles.map { "<style>\(escaped($0))</style>" }.joined() + "</styles>" }
            if let country = release.country { xml += "<country>\(escaped(country))</country>" }
            if let year = release.year { xml += "<released>\(year)</released>" }
            if let master = release.masterID { xml += "<master_id is_main_release=\"false\">\(master)</master_id>" }
            if !barcodes.isEmpty {
                xml += "<identifiers>" + barcodes.map {
                    "<identifier type=\"Barcode\" description=\"\" value=\"\($0.canonical)\"/>"
                }.joined() + "</identifiers>"
            }
            xml += "</release>\n"
        }
        return xml + "</releases>\n"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `crates catalogue build` refused the fixture's dump.
    public struct Failed: Error, CustomStringConvertible {
        public var result: String
        public var description: String { "crates catalogue build failed: \(result)" }
    }
}
