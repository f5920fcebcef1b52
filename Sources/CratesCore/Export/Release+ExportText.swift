extension Release {
    /// The labels' catalogue numbers, joined by ", " (Discogs' export joins them so).
    public var catalogNumbersText: String { labels.compactMap(\.catno).joined(separator: ", ") }
    /// The label names, joined by ", ".
    public var labelNamesText: String { labels.map(\.name).joined(separator: ", ") }
    /// The formats with their descriptions, several joined by " + " (as the list shows them).
    public var formatsText: String { formats.joined(separator: " + ") }
}
