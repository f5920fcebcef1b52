import Foundation

/// Reading the file an import names (or standard input for `-`), with a message a user can
/// act on for each way it can fail.
public enum ImportInput {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The file's bytes.
    public static func read(_ file: String) throws(Problem) -> [UInt8] {
        if file == "-" {
            do {
                return Array(try FileHandle.standardInput.readToEnd() ?? Data())
            } catch {
                throw Problem(description: "cannot read standard input: \(SystemError.describe(error))")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw Problem(description: "\(file): no such file")
        }
        if isDirectory.boolValue { throw Problem(description: "\(file) is a directory: name a file of barcodes") }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw Problem(description: "\(file): cannot be read (permissions?)")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw Problem(description: "\(file): \(SystemError.describe(error))")
        }
    }
}
