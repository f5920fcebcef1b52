import Foundation

extension CheckAnswer {
    /// The tab-separated columns, one line per release (one line with the release's fields
    /// empty when none is known).
    public static let columns = [
        "code", "gtin", "verdict", "release_id", "artist", "title", "label", "catno", "format", "country", "year", "master",
        "owned", "place", "wanted", "lowest", "currency", "for_sale", "price_date",
    ]

    /// `columns`' values: a release's own verdict; `owned` its copies' ids (comma-separated),
    /// `place` the first copy's place; `wanted` "yes" or empty.
    public var lines: [String] {
        let rows: [CheckedRelease?] = releases.isEmpty ? [nil] : releases
        return rows.map { release in
            let copies = owned.filter { release == nil || $0.releaseID == release?.id }
            let price = release?.price
            return TabSeparatedText.line([
                code, gtin?.canonical ?? "", (release?.verdict ?? verdict).rawValue, release.map { String($0.id) } ?? "",
                release?.artist ?? "", release?.title ?? "", release?.label ?? "", release?.catno ?? "", release?.format ?? "",
                release?.country ?? "", release?.year.map(String.init) ?? "", release?.master.map(String.init) ?? "",
                copies.map { String($0.id) }.joined(separator: ","), copies.first?.place ?? "",
                wanted.contains { release == nil || $0.releaseID == release?.id } ? "yes" : "",
                price?.lowest.map { String(format: "%.2f", $0) } ?? "", price?.currency ?? "",
                price?.forSale.map(String.init) ?? "", price.map { String(UTCTimestamp.format($0.asOf, .iso8601).prefix(10)) } ?? "",
            ])
        }
    }

    /// A block for a person: the code and the verdict first, then each release with its own
    /// verdict, the copies (place and grades), other pressings and how they differ, the
    /// wantlist's notes and the price with its age. Every text from outside cleaned.
    public func block(now: Date) -> [String] {
        let clean = ControlCharacters.cleaned
        var lines = ["\(clean(code))  \(verdict.shout)"]
        if let note { lines.append("  \(clean(note))") }
        let several = releases.count > 1
        if several { lines.append("  \(releases.count) pressings share this barcode:") }
        for release in releases {
            let mark = several ? "\(release.verdict.shout): " : ""
            lines.append("  \(mark)\(clean(release.displayTitle))  r\(release.id)")
            let pressing = release.pressing
            if !pressing.isEmpty { lines.append("    \(clean(pressing))") }
            if let summary = ownedSummary(of: release.id) { lines.append("    owned: \(clean(summary))") }
            for other in otherPressings where other.of == release.id {
                let copy = other.copy
                let differs = other.differences.isEmpty ? "" : " (\(other.differences.joined(separator: "; ")))"
                lines.append("    other pressing owned: \(clean(copy.summary)) r\(copy.releaseID.map(String.init) ?? "?")\(clean(differs))")
            }
            for want in wanted where want.releaseID == release.id {
                var text = "    wanted"
                if want.rating.isRated { text += " \(want.rating.stars)" }
                if let notes = want.notes, !notes.isEmpty { text += ": \(clean(notes))" }
                lines.append(text)
            }
            lines.append("    price: " + (release.price.map { $0.text(now: now) } ?? "not asked yet"))
        }
        if releases.isEmpty {
            if let summary = ownedSummary(of: nil) { lines.append("  owned: \(clean(summary))") }
            for want in wanted { lines.append("  wanted: \(clean(want.displayTitle))") }
        }
        return lines
    }
}
