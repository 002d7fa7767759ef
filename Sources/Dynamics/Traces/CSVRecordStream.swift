import Foundation

/// Reads RFC 4180 records from a file (or bytes in memory) forward from any byte offset, through
/// one buffer: what it holds does not grow with the file, only with the longest record
/// (at most ``maximumRecordBytes``, 1 MiB; a longer one is skipped).
///
/// A record ends at LF or CRLF outside quotes (the last one may end at the end of the file);
/// quoted fields may hold commas, doubled quotes, CR and LF. The fields of the record last
/// returned are read through ``string(_:)``, ``double(_:)`` and ``integer(_:)`` until the next
/// call to ``next()``.
final class CSVRecordStream {
    /// One record's place and shape.
    struct Record {
        /// The byte offset of its first byte.
        var offset: Int
        /// The line it starts on (1-based; quoted line breaks count).
        var line: Int
        /// The number of fields.
        var fieldCount: Int
        /// Whether a line break ended it (false: the file ended).
        var endsWithLineBreak: Bool
        /// Whether the file ended inside a quoted field.
        var unterminatedQuote: Bool
        /// Whether it was longer than ``maximumRecordBytes`` and skipped (no fields).
        var tooLong: Bool
        /// Whether it is an empty line (one empty, unquoted field).
        var isBlank: Bool
    }

    /// A field: a byte range of the buffer, or the unescaped text of a quoted field.
    private struct Field {
        var start: Int
        var end: Int
        var quoted: String?
    }

    /// Bytes read from the file at a time: 256 KiB.
    static let chunkSize = 256 * 1024
    /// The longest record kept: 1 MiB.
    static let maximumRecordBytes = 1 << 20

    private let handle: FileHandle?
    private let memory: [UInt8]
    private var buffer: [UInt8] = []
    /// The file offset of `buffer[0]`.
    private var bufferStart = 0
    /// The next byte to parse, as an index into `buffer`.
    private var cursor = 0
    /// Whether nothing follows the buffer in the file.
    private var atEnd = false
    /// The line number at `cursor`.
    private var line = 1
    private var fields: [Field] = []
    /// The first read error, if any (the stream then ends).
    private(set) var readError: (any Error)?

    /// A stream over the file behind `handle`.
    init(handle: FileHandle) {
        self.handle = handle
        memory = []
    }

    /// A stream over bytes in memory.
    init(bytes: [UInt8]) {
        handle = nil
        memory = bytes
    }

    /// The byte offset of the next record.
    var offset: Int { bufferStart + cursor }

    /// The line the next record starts on.
    var currentLine: Int { line }

    /// The bytes the stream holds (its buffer and field table), for memory accounting.
    var heldBytes: Int {
        buffer.capacity + fields.capacity * MemoryLayout<Field>.stride
    }

    /// Moves to `offset`, which starts a record on `line`. Within the buffer this costs nothing;
    /// elsewhere the buffer is dropped and refilled from there.
    func seek(to offset: Int, line: Int) {
        if offset >= bufferStart && offset <= bufferStart + buffer.count {
            cursor = offset - bufferStart
        } else {
            buffer.removeAll(keepingCapacity: true)
            bufferStart = offset
            cursor = 0
            atEnd = false
        }
        self.line = line
    }

    /// Reads more bytes, first dropping those before `keep`; returns how far indices moved
    /// down, and whether anything was read.
    private func refill(keeping keep: Int) -> (shift: Int, grew: Bool) {
        guard !atEnd else { return (0, false) }
        let shift = keep
        if shift > 0 {
            buffer.removeSubrange(0 ..< shift)
            bufferStart += shift
            cursor -= shift
            for k in fields.indices {
                fields[k].start -= shift
                fields[k].end -= shift
            }
        }
        let from = bufferStart + buffer.count
        // Room for a chunk after a partly read record, reserved once, so the buffer does not
        // grow by doubling as records straddle chunks.
        if buffer.capacity < 2 * Self.chunkSize { buffer.reserveCapacity(2 * Self.chunkSize) }
        if let handle {
            do {
                try handle.seek(toOffset: UInt64(from))
                let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
                if data.isEmpty { atEnd = true }
                buffer.append(contentsOf: data)
                return (shift, !data.isEmpty)
            } catch {
                readError = readError ?? error
                atEnd = true
                return (shift, false)
            }
        }
        let end = min(memory.count, from + Self.chunkSize)
        if from >= end {
            atEnd = true
            return (shift, false)
        }
        buffer.append(contentsOf: memory[from ..< end])
        return (shift, true)
    }

    /// The next record, or nil at the end of the file.
    func next() -> Record? {
        fields.removeAll(keepingCapacity: true)
        if cursor >= buffer.count {
            _ = refill(keeping: cursor)
            if cursor >= buffer.count { return nil }
        }
        var start = cursor
        let record = (offset: bufferStart + cursor, line: line)
        var i = cursor
        var fieldStart = i
        var inQuotes = false
        var quoted: [UInt8]? = nil
        var endsWithLineBreak = false
        var unterminated = false

        func endField(at end: Int) {
            if let q = quoted {
                fields.append(Field(start: fieldStart, end: end, quoted: String(decoding: q, as: UTF8.self)))
            } else {
                fields.append(Field(start: fieldStart, end: end, quoted: nil))
            }
            quoted = nil
        }

        while true {
            if i >= buffer.count {
                if i - start > Self.maximumRecordBytes {
                    return skipLongRecord(from: i, record: record)
                }
                let (shift, grew) = refill(keeping: start)
                start -= shift
                i -= shift
                fieldStart -= shift
                if !grew {
                    unterminated = inQuotes
                    endField(at: i)
                    break
                }
                continue
            }
            let b = buffer[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 >= buffer.count {
                        let (shift, _) = refill(keeping: start)
                        start -= shift
                        i -= shift
                        fieldStart -= shift
                    }
                    if i + 1 < buffer.count && buffer[i + 1] == UInt8(ascii: "\"") {
                        quoted!.append(b)
                        i += 2
                    } else {
                        inQuotes = false
                        i += 1
                    }
                } else {
                    if b == UInt8(ascii: "\n") { line += 1 }
                    quoted!.append(b)
                    i += 1
                }
                continue
            }
            switch b {
            case UInt8(ascii: ","):
                endField(at: i)
                i += 1
                fieldStart = i
            case UInt8(ascii: "\"") where i == fieldStart && quoted == nil:
                inQuotes = true
                quoted = []
                i += 1
            case UInt8(ascii: "\n"):
                let end = (i > fieldStart && buffer[i - 1] == UInt8(ascii: "\r") && quoted == nil) ? i - 1 : i
                if quoted != nil, i > fieldStart, buffer[i - 1] == UInt8(ascii: "\r"), quoted!.last == UInt8(ascii: "\r") {
                    quoted!.removeLast()
                }
                endField(at: end)
                i += 1
                line += 1
                endsWithLineBreak = true
            default:
                // Text after a closing quote belongs to the field (lenient, as most readers are).
                quoted?.append(b)
                i += 1
            }
            if endsWithLineBreak { break }
            if i - start > Self.maximumRecordBytes {
                return skipLongRecord(from: i, record: record)
            }
        }
        cursor = i
        let blank = fields.count == 1 && fields[0].quoted == nil && fields[0].start == fields[0].end
        return Record(offset: record.offset, line: record.line, fieldCount: fields.count,
                      endsWithLineBreak: endsWithLineBreak, unterminatedQuote: unterminated, tooLong: false,
                      isBlank: blank)
    }

    /// What ``skim(field:)`` learns of a record.
    struct Skimmed {
        /// The byte offset of its first byte.
        var offset: Int
        /// The line it starts on.
        var line: Int
        /// Field `k` as a whole number (as ``integer(_:)`` reads it), or nil when the record has
        /// no field `k` or it is not one.
        var integer: Int?
        /// Whether it is an empty line.
        var isBlank: Bool
    }

    /// The next record, passed over quickly: only field `k` is read (as a whole number), the
    /// other fields are not split. For scanning a file for where frames start.
    ///
    /// A record that fits in one line with no `"` in it is found with `memchr` and a walk over
    /// its first `k` commas; any other record (quotes, the last line without a line break, a
    /// line longer than the buffer) goes through ``next()``, so the result is always the one
    /// ``next()`` and ``integer(_:)`` would give. The fields of a skimmed record cannot be read.
    func skim(field k: Int) -> Skimmed? {
        fields.removeAll(keepingCapacity: true)
        if cursor >= buffer.count {
            _ = refill(keeping: cursor)
            if cursor >= buffer.count { return nil }
        }
        var outcome = skimLine(field: k)
        if case .needMore = outcome {
            _ = refill(keeping: cursor)   // the line straddles the buffer's end: read on, once
            outcome = skimLine(field: k)
        }
        if case .found(let skimmed, let next) = outcome {
            cursor = next
            line += 1
            return skimmed
        }
        guard let record = next() else { return nil }
        let value = record.fieldCount > k && !record.tooLong ? integer(k) : nil
        return Skimmed(offset: record.offset, line: record.line, integer: value, isBlank: record.isBlank)
    }

    private enum SkimOutcome {
        /// The record, and the index just past its line break.
        case found(Skimmed, next: Int)
        /// No line break in the buffer.
        case needMore
        /// A quote in the line: only the full parser reads it right.
        case quoted
    }

    /// The line at the cursor, if it ends in the buffer and holds no quote.
    private func skimLine(field k: Int) -> SkimOutcome {
        let start = cursor
        let line = self.line
        let origin = bufferStart
        return buffer.withUnsafeBufferPointer { bytes -> SkimOutcome in
            guard start < bytes.count, let base = bytes.baseAddress,
                  let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else { return .needMore }
            let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))   // the LF
            if memchr(base + start, Int32(UInt8(ascii: "\"")), end - start) != nil { return .quoted }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let blank = lineEnd == start
            // Field k: after the k-th comma, up to the next comma or the line's end.
            var i = start
            var commas = 0
            while commas < k && i < lineEnd {
                if bytes[i] == UInt8(ascii: ",") { commas += 1 }
                i += 1
            }
            var value: Int?
            if commas == k && !blank {
                var j = i
                while j < lineEnd && bytes[j] != UInt8(ascii: ",") { j += 1 }
                value = Self.parseInteger(bytes, i, j)
            }
            return .found(Skimmed(offset: origin + start, line: line, integer: value, isBlank: blank), next: end + 1)
        }
    }

    /// The bytes `start..<end` as a whole number in decimal digits (an optional `-`), or nil.
    private static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard end > start, end - start <= 18 else { return nil }
        var value = 0
        var i = start
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end else { return nil }
        while i < end {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
            i += 1
        }
        return negative ? -value : value
    }

    /// Skips the rest of an overlong record up to the next LF (quotes ignored: its structure is
    /// lost anyway), keeping nothing of it.
    private func skipLongRecord(from index: Int, record: (offset: Int, line: Int)) -> Record {
        fields.removeAll(keepingCapacity: true)
        var i = index
        var ended = false
        while !ended {
            if i >= buffer.count {
                let (shift, grew) = refill(keeping: i)
                i -= shift
                if !grew { break }
                continue
            }
            if buffer[i] == UInt8(ascii: "\n") {
                line += 1
                ended = true
            }
            i += 1
        }
        cursor = i
        return Record(offset: record.offset, line: record.line, fieldCount: 0, endsWithLineBreak: ended,
                      unterminatedQuote: false, tooLong: true, isBlank: false)
    }

    // MARK: Fields of the last record

    /// Field `k` of the last record as text (invalid UTF-8 repaired).
    func string(_ k: Int) -> String {
        let f = fields[k]
        if let q = f.quoted { return q }
        return buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[f.start ..< f.end]), as: UTF8.self) }
    }

    /// Field `k` as a `Double` in Swift's syntax (`0.1`, `1e-05`, `nan`, `inf`), or nil.
    func double(_ k: Int) -> Double? {
        let f = fields[k]
        if let q = f.quoted { return Double(q) }
        guard f.end > f.start, f.end - f.start <= 64 else { return nil }
        return buffer.withUnsafeBufferPointer { Double(String(decoding: UnsafeBufferPointer(rebasing: $0[f.start ..< f.end]), as: UTF8.self)) }
    }

    /// Field `k` as a whole number written in decimal digits (an optional `-`), or nil.
    func integer(_ k: Int) -> Int? {
        let f = fields[k]
        if let q = f.quoted { return Int(q) }
        guard f.end > f.start, f.end - f.start <= 18 else { return nil }
        var value = 0
        var i = f.start
        let negative = buffer[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < f.end else { return nil }
        while i < f.end {
            let d = buffer[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
            i += 1
        }
        return negative ? -value : value
    }

    /// Whether field `k` is exactly `text` (ASCII, case-insensitive when `caseInsensitive`).
    func field(_ k: Int, equals text: StaticString, caseInsensitive: Bool = false) -> Bool {
        let f = fields[k]
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        if let q = f.quoted {
            return caseInsensitive ? q.lowercased() == String(decoding: bytes, as: UTF8.self) : q == String(decoding: bytes, as: UTF8.self)
        }
        guard f.end - f.start == bytes.count else { return false }
        for (n, expected) in bytes.enumerated() {
            var b = buffer[f.start + n]
            if caseInsensitive, b >= UInt8(ascii: "A"), b <= UInt8(ascii: "Z") { b += 32 }
            if b != expected { return false }
        }
        return true
    }
}
