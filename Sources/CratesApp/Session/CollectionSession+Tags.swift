import CratesCore
import CratesStore
import Foundation

/// The UI's tagged records: what tags them (every record the filter shows, a copy label in
/// tag-by-scan mode) and the actions that take them all at once. Each action is one store
/// transaction with one undo; records another process deleted meanwhile are skipped and
/// counted, and the message says how many.
extension CollectionSession {
    func executeTagRequest(_ request: SessionRequest) async throws {
        switch request {
        case .tagShown(let query):
            post(.tagged(try await store.recordIDs(shownBy: query), title: nil))
        case .tagCopy(let code):
            switch try await context.scan(code) {
            case .select(let record):
                post(.tagged([record.id], title: record.subject))
            case .noSuchCopy(let message):
                post(.message(message, isError: true))
            case .entered(let place):
                post(.location(place))
            case .unchanged:
                break
            case .left(let message):
                post(.location(nil))
                post(.message(message, isError: true))
            }
        case .gradeRecords(let ids, let change):
            let edit = RecordEdit(grading: change)
            let (count, token) = try await undo.edit(ids, edit)
            let text = "Set \(edit.summary) on \(counted(count, "record"))" + Self.gone(asked: ids, done: count, "edited")
            post(token.map { .edited(text: text, undo: $0) } ?? .message(text, isError: count < Set(ids).count))
        case .refresh(let ids):
            let queued = try await store.retry(ids)
            nudgeWorker()
            let left = Set(ids).count - queued.count
            post(.message(
                // Queued, not looked up: with lookups off or signed out they wait (the UI said so).
                "\(counted(queued.count, "record")) queued to be looked up again"
                    + (left > 0 ? "; \(left) left alone (entered by hand, or deleted meanwhile)" : ""),
                isError: false))
        case .exportRecords(let ids):
            try await exportRecords(ids)
        default:
            break
        }
    }

    /// "; 2 could not be moved (deleted meanwhile)" when fewer records than asked were done;
    /// empty otherwise.
    static func gone(asked ids: [Int64], done: Int, _ verb: String) -> String {
        let missing = Set(ids).count - done
        return missing > 0 ? "; \(missing) could not be \(verb) (deleted meanwhile)" : ""
    }

    /// The records as Discogs' collection CSV with a Barcode column (as `crates export
    /// --format csv` writes it), in a new file in `exportDirectory`.
    func exportRecords(_ ids: [Int64]) async throws {
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted))
        let name = "crates-tagged-\(stamp.replacingOccurrences(of: ":", with: "")).csv"
        let path = exportDirectory + "/" + name
        let file = try ExportFile(path: path, sparing: store.path)
        do {
            var filter = ExportFilter()
            filter.records = ids
            let written = try await CollectionExport(store: store, filter: filter).writeCSV(to: file, crlf: false)
            try file.commit()
            post(.message("Exported \(counted(written, "record")) to \(path)" + Self.gone(asked: ids, done: written, "exported"), isError: false))
        } catch {
            file.abandon()
            throw error
        }
    }
}
