import Testing
@testable import CratesCore

/// The format chart's first level, read from format texts as crates stores them: Discogs'
/// formats as the API and the dump give them (name, then descriptions, joined with " + ";
/// from /work/shared/discogs-samples and discogs-dump), and a collector's own.
@Suite struct FormatMediumTests {
    @Test("Discogs' formats and collectors' own name their medium", arguments: [
        ("Vinyl, LP, Album", FormatMedium.lp),
        ("Vinyl, LP, Album, Reissue, 180 Gram", .lp),
        ("Vinyl, 12\", 45 RPM", .twelveInch),
        ("Vinyl, 12\", 33 ⅓ RPM, Album", .twelveInch),
        ("Vinyl, 12\", 33 ⅓ RPM, Album, Repress", .twelveInch),
        ("Vinyl, 12\", EP, 33 ⅓ RPM", .twelveInch),
        ("Vinyl, 7\", 45 RPM, Single", .sevenInch),
        ("Vinyl, 10\", LP, Mono", .tenInch),
        ("Shellac, 10\", 78 RPM", .tenInch),
        ("Vinyl", .lp),
        ("CD, Album", .cd),
        ("CD, Album, Reissue", .cd),
        ("CD, Compilation, Mixed", .cd),
        ("CDr, Album, Limited Edition", .cd),
        ("Cassette, Album", .cassette),
        ("File, WAV, EP", .file),
        ("File, FLAC, Album", .file),
        ("Box Set, Compilation + Vinyl, LP, Album + CD, Album", .lp),
        ("CD + DVD", .cd),
        ("DVD, PAL", .other),
        ("", .other),
        // A collector's own words.
        ("LP", .lp), ("2xLP", .lp), ("2×LP", .lp), ("12\"", .twelveInch), ("7in", .sevenInch), ("10 inch", .tenInch),
        ("cd", .cd), ("MC", .cassette), ("Tape", .cassette), ("Digital", .file), ("Picture disc", .other),
    ])
    func medium(_ text: String, _ expected: FormatMedium) {
        #expect(FormatMedium.of(text) == expected, "\(text)")
    }

    @Test("the second level: the descriptions, each once, without names, sizes and media")
    func descriptions() {
        #expect(FormatMedium.descriptions(of: "CD, Album, Reissue") == ["Album", "Reissue"])
        #expect(FormatMedium.descriptions(of: "Vinyl, LP, Album") == ["Album"])
        #expect(FormatMedium.descriptions(of: "Vinyl, 12\", 33 ⅓ RPM, Album, Repress") == ["33 ⅓ RPM", "Album", "Repress"])
        #expect(FormatMedium.descriptions(of: "Box Set, Compilation + Vinyl, LP, Album + CD, Album") == ["Compilation", "Album"])
        #expect(FormatMedium.descriptions(of: "File, WAV, EP") == ["EP"])
        #expect(FormatMedium.descriptions(of: "Vinyl").isEmpty)
        #expect(FormatMedium.descriptions(of: "2xLP").isEmpty)
    }

    @Test("the chart: whole texts summed by medium, descriptions as children, largest first")
    func chart() {
        typealias Count = CollectionStatistics.Count
        let byText = [
            Count(key: "CD, Album", count: 5), Count(key: "CD, Album, Reissue", count: 3), Count(key: "Vinyl, LP, Album", count: 4),
            Count(key: "LP", count: 2), Count(key: "Vinyl, 7\", 45 RPM, Single", count: 1), Count(key: "DVD, PAL", count: 1),
        ]
        let chart = FormatMedium.chart(byText)
        #expect(chart.map(\.key) == ["CD", "LP", "7\"", "Other"])
        #expect(chart.map(\.count) == [8, 6, 1, 1])
        #expect(chart[0].children == [Count(key: "Album", count: 8), Count(key: "Reissue", count: 3)])
        #expect(chart[1].children == [Count(key: "Album", count: 4)])
        #expect(chart[2].children == [Count(key: "45 RPM", count: 1), Count(key: "Single", count: 1)])
        #expect(FormatMedium.counts("CD, Album, Reissue", in: "CD", detail: "Reissue"))
        #expect(!FormatMedium.counts("CD, Album", in: "CD", detail: "Reissue"))
        #expect(!FormatMedium.counts("CD, Album", in: "LP", detail: nil))
    }

    @Test("the report shows a medium's descriptions under it, indented, each bar its facet")
    func report() {
        let statistics = CollectionStatistics(totals: .init(copies: 8), dimensions: [(.format, FormatMedium.chart([
            .init(key: "CD, Album", count: 5), .init(key: "CD, Album, Reissue", count: 3),
        ]))])
        let bars = StatisticsReport.lines(statistics, width: 40).filter { $0.kind == .bar }
        #expect(bars.count == 3)
        #expect(zip(bars, ["CD ", "  Album ", "  Reissue "]).allSatisfy { $0.text.hasPrefix($1) }, "\(bars.map(\.text))")
        #expect(bars.map(\.facet) == [
            StatisticsFacet(.format, "CD"), StatisticsFacet(.format, "CD", detail: "Album"),
            StatisticsFacet(.format, "CD", detail: "Reissue"),
        ])
        #expect(statistics.json.contains(#""format":[{"key":"CD","count":8,"descriptions":[{"key":"Album","count":8},{"key":"Reissue","count":3}]}]"#))
    }
}
