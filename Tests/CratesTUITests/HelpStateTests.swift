import CratesCore
import CratesTestSupport
import Testing
@testable import CratesTUI

/// The help screen in a terminal too short for it: the title says which lines show and
/// that there are more, and every key the help names is reachable by scrolling.
@Suite("Collection UI: help", .offThePool)
struct HelpStateTests {
    @Test("in 24 lines the title counts the lines shown; j, Space, G and g scroll within the text; every line can be seen")
    func scrollsWithinTheText() throws {
        var h = Harness(width: 80, height: 24)
        h.send(.key(.character("?"), at: 100))
        let help = HelpText.lines(width: 80).map(\.text)
        let visible = h.state.listHeight
        try #require(help.count > visible, "the help fits: nothing to scroll")
        #expect(h.lines[0].hasPrefix(" crates · keys 1–\(visible) of \(help.count)"), "\(h.lines[0])")
        #expect(h.lines[0].hasSuffix("j Space:more Esc:back"), "\(h.lines[0])")
        // The keys that open the other views are on the first screen.
        for view in ["places: the tree with counts", "statistics: bar charts", "conflicts with Discogs"] {
            #expect(h.lines.contains { $0.contains(view) }, "\(view): \(h.lines)")
        }

        h.send(.key(.character("G"), at: 101))
        let last = help.count - visible
        #expect(h.state.mode == .help(scroll: last))
        #expect(h.lines[0].hasPrefix(" crates · keys \(last + 1)–\(help.count) of \(help.count)"), "\(h.lines[0])")
        #expect(h.lines[0].hasSuffix("Esc:back ?:help"), "no more below: \(h.lines[0])")
        #expect(h.lines[visible].hasPrefix(" " + help[help.count - 1]), "the last line at the foot: \(h.lines)")
        // Past the end nothing moves, and one k is one line up.
        h.send(.key(.character("j"), at: 102))
        h.send(.key(.character(" "), at: 103))
        #expect(h.state.mode == .help(scroll: last))
        h.send(.key(.character("k"), at: 104))
        #expect(h.state.mode == .help(scroll: last - 1))
        h.send(.key(.character("g"), at: 105))
        #expect(h.state.mode == .help(scroll: 0))

        // Page by page, every line of the help is shown once at least.
        var seen = Set<String>()
        for step in 0..<(help.count / max(1, visible - 1) + 2) {
            seen.formUnion(h.lines.dropFirst().prefix(visible).map { $0.dropFirst().trimmingCharacters(in: .whitespaces) })
            h.send(.key(.character(" "), at: 106 + Double(step)))
        }
        let missing = help.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !seen.contains($0) }
        #expect(missing.isEmpty, "never shown: \(missing)")
        h.send(.key(.escape, at: 200))
        #expect(h.state.mode == .list)
    }

    @Test("a line too long for the terminal goes on under itself, every word shown", arguments: [40, 80])
    func wraps(_ width: Int) throws {
        let lines = HelpText.lines(width: width).map(\.text)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width - 2 }, "\(lines.filter { DisplayWidth.of($0) > width - 2 })")
        let words = { (text: String) in text.split(separator: " ").map(String.init) }
        let expected = KeyContext.allCases.compactMap(\.note).flatMap(words) + KeyMap.bindings.flatMap { words($0.help) }
        let shown = Set(lines.flatMap(words))
        // A word longer than a line (the address, at 40 columns) is broken where the line ends.
        #expect(expected.filter { DisplayWidth.of($0) <= width - 24 && !shown.contains($0) }.isEmpty)
        // A note goes on under the note; a key's text under the text (column 21), not under the keys.
        let token = lines.firstIndex { $0.hasPrefix("  Paste a personal access token") }
        #expect(token.map { lines[$0 + 1].hasPrefix("  ") && !lines[$0 + 1].hasPrefix("   ") } == true, "\(lines)")
        let long = try #require(KeyMap.bindings.first { DisplayWidth.of($0.help) > width - 2 - 21 }, "no key's text wraps at \(width)")
        let first = try #require(lines.firstIndex { $0.count > 21 && long.help.hasPrefix(String($0.dropFirst(21))) }, "\(lines)")
        #expect(lines[first + 1].hasPrefix(String(repeating: " ", count: 21)) && lines[first + 1].dropFirst(21).first != " ",
                "\(lines[first]) / \(lines[first + 1])")
    }

    @Test("a help that fits says no line count and no more")
    func fits() {
        var h = Harness(width: 80, height: HelpText.lines(width: 80).count + 4)
        h.send(.key(.character("?"), at: 100))
        #expect(h.lines[0].hasPrefix(" crates · keys ") && !h.lines[0].contains(" of "), "\(h.lines[0])")
        h.send(.key(.character("G"), at: 101))
        #expect(h.state.mode == .help(scroll: 0))
    }
}
