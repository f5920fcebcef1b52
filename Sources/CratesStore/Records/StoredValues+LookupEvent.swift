import CratesCore
import Foundation
import GRDB

extension StoredValues {
    static func events(_ db: Database, recordID: Int64) throws -> [LookupEvent] {
        try Row.fetchAll(
            db, sql: "SELECT id, at, kind, message FROM lookupEvent WHERE recordID = ? ORDER BY id",
            arguments: [recordID]
        ).map { row in
            let kindText = try row.decode(String.self, atIndex: 2)
            guard let kind = LookupEvent.Kind(rawValue: kindText) else {
                throw StoreError.unreadableValue(recordID: recordID, column: "lookupEvent.kind", value: kindText)
            }
            return LookupEvent(
                id: try row.decode(Int64.self, atIndex: 0), recordID: recordID,
                at: date(try row.decode(Double.self, atIndex: 1)), kind: kind,
                message: try row.decode(String.self, atIndex: 3))
        }
    }

    static func addEvent(_ db: Database, recordID: Int64, at: Date, kind: LookupEvent.Kind, message: String) throws {
        try db.cachedStatement(sql: "INSERT INTO lookupEvent (recordID, at, kind, message) VALUES (?, ?, ?, ?)")
            .execute(arguments: [recordID, seconds(at), kind.rawValue, message])
    }

    static func insertExisting(_ db: Database, _ event: LookupEvent) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO lookupEvent (id, recordID, at, kind, message) VALUES (?, ?, ?, ?, ?)",
            arguments: [event.id, event.recordID, seconds(event.at), event.kind.rawValue, event.message])
    }
}
