import CratesCore
import CratesStore

extension Importer {
    /// `--dry-run`: the plan, line by line, against the collection as it is; nothing opened
    /// for writing, no file created.
    public static func dryRun(_ parsed: ImportFile, databasePath: String, copies: Bool) throws(StoreError) -> ImportPlan {
        try CollectionStore.importPlan(parsed, copies: copies, inFileAt: databasePath)
    }
}

extension ImportPlan {
    /// A `--dry-run` line: `LINE  VERDICT  SUBJECT  DETAIL`.
    public static func dryRunLine(_ line: Line) -> String {
        "\(line.line)\t\(line.verdict)\t\(line.subject)\t\(line.detail)"
    }

    /// `gtins.txt (dry run): would add 120 records; 12 already in the collection; …`.
    public func dryRunSummary(name: String, strict: Bool) -> String {
        var summary = "\(name) (dry run): would add \(counted(newCount, "record"))"
        if needsDiscogsCount > 0 { summary += ", and \(needsDiscogsCount) more once Discogs names their barcodes" }
        summary += "; \(presentCount) already in the collection"
        if invalidCount + notARecordCount > 0 {
            summary += "; \(counted(invalidCount + notARecordCount, "line")) refused"
            if strict { summary += ", so --strict would import nothing" }
        }
        return summary
    }
}
