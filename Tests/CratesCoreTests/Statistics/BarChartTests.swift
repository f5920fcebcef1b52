import Testing
@testable import CratesCore

@Suite struct BarChartTests {
    typealias Count = CollectionStatistics.Count

    @Test("bars are proportional to the counts, to the nearest eighth of a column")
    func proportional() {
        let counts = [Count(key: "Rock", count: 800), Count(key: "Jazz", count: 400), Count(key: "Pop", count: 100),
                      Count(key: "Folk", count: 1), Count(key: "Blues", count: 613)]
        let lines = BarChart.lines(counts, width: 80)
        let columns = 80 - 5 - 3 - 2
        let eighths = lines.map { BarChart.eighthsIn($0) }
        #expect(eighths[0] == columns * 8)
        for (count, length) in zip(counts, eighths) {
            let exact = Double(count.count) * Double(columns * 8) / 800
            // The nearest eighth; the smallest count still shows one.
            #expect(abs(Double(length) - exact) <= 0.5 || (length == 1 && exact < 1), "\(count) \(length) \(exact)")
        }
        #expect(eighths[1] * 2 == eighths[0])
        #expect(BarChart.bar(1, of: 8, columns: 1) == "▏")
        #expect(BarChart.bar(7, of: 8, columns: 1) == "▉")
        #expect(BarChart.bar(8, of: 8, columns: 1) == "█")
        #expect(BarChart.bar(3, of: 4, columns: 3) == "██▎")
        #expect(BarChart.bar(0, of: 4, columns: 3) == "")
    }

    @Test("a terminal 40 columns wide: every line 40 columns, keys cut, counts right-aligned")
    func fortyColumns() {
        let counts = [Count(key: "Electronic Body Music And More", count: 12_345), Count(key: "坂本龍一", count: 7),
                      Count(key: "Pop", count: 300)]
        let lines = BarChart.lines(counts, width: 40)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 40 }, "\(lines)")
        #expect(lines[0].hasPrefix("Electronic B… █"), "\(lines[0])")
        #expect(lines[0].hasSuffix(" 12345"))
        #expect(lines[1].hasPrefix("坂本龍一      ▏"), "\(lines[1])")
        #expect(lines[1].hasSuffix("     7"))
        // 40 - 13 (key) - 5 (count) - 2 spaces = 20 columns of bar for the largest.
        #expect(BarChart.eighthsIn(lines[0]) == 160)
        #expect(BarChart.lines([], width: 40).isEmpty)
    }
}
