import CSQLite
import Foundation

/// A function SQL can call, written in Swift: `name(pattern, text)`, where `pattern` is the same
/// for every row a statement reads (a search as typed) and `text` is each row's value, handed
/// over as SQLite's own UTF-8 bytes (valid only during the call): a scan calls it for every
/// row, and making a String of each was most of a cheap function's time.
///
/// The pattern is compiled once per statement, not once per row: SQLite keeps the compiled form
/// as the argument's auxiliary data for as long as the statement runs with the same value. A
/// pattern that does not compile makes the function answer NULL, which a `WHERE` reads as false.
public struct TextFunction: Sendable {
    public let name: String
    let compile: @Sendable (String) -> (any Sendable)?
    let evaluate: @Sendable (any Sendable, UnsafeBufferPointer<UInt8>) -> SQLiteValue

    public init<Compiled: Sendable>(name: String, compile: @escaping @Sendable (String) -> Compiled?,
                                    evaluate: @escaping @Sendable (Compiled, UnsafeBufferPointer<UInt8>) -> SQLiteValue) {
        self.name = name
        self.compile = { compile($0) }
        self.evaluate = { compiled, text in evaluate(compiled as! Compiled, text) }
    }
}

extension SQLiteConnection {
    /// Makes `function` callable from SQL on this connection.
    func register(_ function: TextFunction) throws {
        let box = Unmanaged.passRetained(Boxed(function)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, function.name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, arguments in TextFunction.call(context, count, arguments) }, nil, nil,
            { box in box.map { Unmanaged<Boxed<TextFunction>>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else { throw lastError() }
    }
}

extension TextFunction {
    fileprivate static func call(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let context, count == 2, let arguments, let user = sqlite3_user_data(context) else { return }
        let function = Unmanaged<Boxed<TextFunction>>.fromOpaque(user).takeUnretainedValue().value
        let compiled: (any Sendable)
        if let kept = sqlite3_get_auxdata(context, 0) {
            compiled = Unmanaged<Boxed<any Sendable>>.fromOpaque(kept).takeUnretainedValue().value
        } else {
            guard let pattern = bytes(arguments[0]).map({ String(decoding: $0, as: UTF8.self) }), let made = function.compile(pattern) else {
                sqlite3_result_null(context)
                return
            }
            compiled = made
            // SQLite owns the box from here and releases it when the statement is done with it.
            sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(Boxed<any Sendable>(made)).toOpaque()) { box in
                box.map { Unmanaged<Boxed<any Sendable>>.fromOpaque($0).release() }
            }
        }
        guard let value = bytes(arguments[1]) else {
            sqlite3_result_null(context)
            return
        }
        switch function.evaluate(compiled, value) {
        case .null: sqlite3_result_null(context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .real(let number): sqlite3_result_double(context, number)
        case .date(let date): sqlite3_result_double(context, date.timeIntervalSince1970)
        case .text(let result): sqlite3_result_text(context, result, -1, csqlite_transient())
        case .blob(let bytes): sqlite3_result_blob(context, bytes, Int32(bytes.count), csqlite_transient())
        }
    }

    /// The value as UTF-8 text, owned by SQLite until the function returns; nil for NULL.
    private static func bytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
        guard let value, sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    }
}

/// A Swift value handed to C and back.
private final class Boxed<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
