import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The statistics screen in the real collection UI under tmux: `#` shows the charts of
/// `crates stats`, Enter on a bar narrows the list to as many copies as the bar counted.
@Suite("TUI end to end: statistics", .serialized, .processTimeLimit)
struct TUIStatisticsEndToEndTests {
    @Test("# shows the charts; Enter on a genre's bar, then on a place's: the list holds the bar's count; Esc: back to the chart")
    func statisticsScreen() async throws {
        let sandbox = try CommandSandbox()
        try await StatsCommandTests.seed(try sandbox.openStore())
        let stats = try await sandbox.crates(["stats", "--json"])
        #expect(stats.status == 0, "\(stats)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let genres = try #require(object["genre"] as? [[String: Any]])
        let places = try #require(object["location"] as? [[String: Any]])
        let topGenre = try #require(genres.first?["key"] as? String)
        let topGenreCount = try #require(genres.first?["count"] as? Int)
        let topPlace = try #require(places.first?["key"] as? String)
        let topPlaceCount = try #require(places.first?["count"] as? Int)

        let tmux = try await sandbox.sandbox.start(width: 100, height: 40)
        try await tmux.waitFor(text: "60 records")
        try await tmux.press("#")
        try await tmux.waitFor(text: "crates · statistics")
        try await tmux.waitFor("the totals and the genres' chart") { lines in
            lines.contains { $0.hasPrefix(" copies") && $0.hasSuffix(" 60") } && lines.contains { $0.hasPrefix(" Genres") }
                && lines.contains { $0.hasPrefix(" \(topGenre) ") && $0.contains("█") && $0.hasSuffix(" \(topGenreCount)") }
        }
        // The first bar is selected: Enter shows its copies.
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "crates · genre \(topGenre): \(topGenreCount) copies")
        try await tmux.waitFor(text: "Showing genre \(topGenre) (Esc: back to the chart)")
        // Esc goes back to the chart, not to the whole collection.
        try await tmux.press("Escape")
        try await tmux.waitFor("back on the chart") { lines in
            lines.first?.hasPrefix(" crates · statistics") == true
                && lines.contains { $0.hasPrefix(" \(topGenre) ") && $0.hasSuffix(" \(topGenreCount)") }
        }

        // Tab walks the charts: genres, styles, decades, years, formats, countries, labels, places.
        // The other charts come after the genres' (one answer): Tab moves among those there.
        try await tmux.waitFor("every chart counted") { lines in
            lines.contains { $0.hasPrefix(" Styles") } && !lines.contains { $0.contains("Counting the other charts…") }
        }
        for _ in 0..<7 { try await tmux.press("Tab") }
        try await tmux.waitFor("the places' chart") { lines in lines.contains { $0.hasPrefix(" Places") } }
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "crates · place \(topPlace): \(topPlaceCount) cop")
        try await tmux.press("?")
        try await tmux.waitFor(text: "statistics: bar charts (Enter on a bar lists it)")
        try await tmux.press("q")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("the formats' chart: media with their descriptions under them; Enter on a description lists its copies; Esc: back")
    func formatsByMedium() async throws {
        let sandbox = try CommandSandbox()
        try await StatsCommandTests.seed(try sandbox.openStore())
        let stats = try await sandbox.crates(["stats", "--json", "--by", "format"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let formats = try #require(object["format"] as? [[String: Any]])
        let top = try #require(formats.first)
        #expect(top["key"] as? String == "LP", "\(formats)")
        let topCount = try #require(top["count"] as? Int)
        let description = try #require((top["descriptions"] as? [[String: Any]])?.first)
        let descriptionKey = try #require(description["key"] as? String)
        let descriptionCount = try #require(description["count"] as? Int)

        let tmux = try await sandbox.sandbox.start(width: 100, height: 60)
        try await tmux.waitFor(text: "60 records")
        try await tmux.press("#")
        try await tmux.waitFor("every chart counted") { lines in
            lines.contains { $0.hasPrefix(" Styles") } && !lines.contains { $0.contains("Counting the other charts…") }
        }
        // Genres, styles, decades, years, formats (tall enough for a bar's descriptions under it).
        for _ in 0..<4 { try await tmux.press("Tab") }
        try await tmux.waitFor("the formats' chart, by medium, descriptions indented") { lines in
            guard let heading = lines.firstIndex(where: { $0.hasPrefix(" Formats") }), heading + 2 < lines.count else { return false }
            return lines[heading + 1].hasPrefix(" LP ") && lines[heading + 1].hasSuffix(" \(topCount)")
                && lines[heading + 2].hasPrefix("   \(descriptionKey) ") && lines[heading + 2].hasSuffix(" \(descriptionCount)")
        }
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "crates · format LP: \(topCount) cop")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "crates · statistics")
        try await tmux.press("j")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "crates · format LP › \(descriptionKey): \(descriptionCount) cop")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "crates · statistics")
        try await tmux.press("q")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("a configuration file that does not parse: said on the status line as the UI starts, with its line")
    func brokenConfigurationOnStatusLine() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let config = sandbox.directory.appendingPathComponent("config/crates")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{\n  \"covers\": False\n}\n".utf8).write(to: config.appendingPathComponent("config.json"))
        let tmux = try await sandbox.start(width: 200, height: 24)
        // On the UI's own screen (the same words went to standard error before it started).
        try await tmux.waitFor("the UI, with the problem on its bottom line") { lines in
            // The message may wrap over the bottom lines (a long path): read them as one.
            lines.contains { $0.contains("No records yet.") }
                && lines.suffix(3).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                    .contains("config.json is not valid JSON: line 2, column 13: `False`: JSON writes false in lower case")
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
