/// A release's index keys, as the catalogue writes them: its barcodes' and its catalogue
/// numbers'.
///
/// Worked out where the release is read (the dump reader's parsing thread), not where it is
/// written: the writing thread was the build's longest, and on two cores the three threads of
/// a build end soonest when none carries work another could. The keys are what balances them
/// (`perf`, 200,000 releases: the writing thread's share of the CPU from 50% to about 40%);
/// moving the stored texts too made the parsing thread the longest instead.
public struct DumpReleaseKeys: Sendable {
    /// `DumpBarcode.keys` of the release's barcodes.
    public var barcodes: [UInt64]
    /// `DumpBarcode.catalogueNumberKeys` of its labels' catalogue numbers.
    public var catalogueNumbers: [String]

    public init(_ release: DumpRelease) {
        barcodes = DumpBarcode.keys(release.barcodes)
        catalogueNumbers = DumpBarcode.catalogueNumberKeys(release.labels.map(\.catno))
    }
}
