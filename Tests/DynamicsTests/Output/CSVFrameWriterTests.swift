import Foundation
import Testing

@testable import Dynamics

@Suite("CSVFrameWriter")
struct CSVFrameWriterTests {
    static let header = "frame,time,item,x,y,angle,vx,vy,angular_velocity,resting"

    static func report(index: Int, names: [String?] = ["ball", nil], value: Double = 0.5) -> FrameReport {
        FrameReport(
            index: index, time: Double(index + 1) / 60, steps: 1,
            items: names.enumerated().map { position, name in
                FrameReport.Item(
                    name: name,
                    center: CGPoint(x: value * Double(position + 1), y: Double(index)),
                    angle: 0.1, velocity: CGPoint(x: -3, y: 1e-5), angularVelocity: 1 / 3,
                    isResting: position % 2 == 1)
            })
    }

    /// The records of `csv`, the header included, as the trace reader splits them
    /// (``CSVRecordStream``): the writer is checked against the parser that reads its files.
    static func records(_ csv: String) -> [[String]] {
        let stream = CSVRecordStream(bytes: Array(csv.utf8))
        var out: [[String]] = []
        while let record = stream.next() { out.append((0 ..< record.fieldCount).map(stream.string)) }
        return out
    }

    static func temporaryPath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.path
        return directory + "/swift-dynamics-\(name)-\(UUID().uuidString).csv"
    }

    @Test func emptyWriterHoldsTheHeader() {
        #expect(CSVFrameWriter().text == Self.header + "\r\n")
        #expect(CSVFrameWriter.header == Self.header)
    }

    @Test func headerAndRowsAreExact() {
        let writer = CSVFrameWriter()
        writer.write(Self.report(index: 0))
        writer.write(FrameReport(index: 1, time: 1, steps: 0, items: []))  // no items: no rows
        writer.write(Self.report(index: 2, names: [nil]))
        let expected = """
            frame,time,item,x,y,angle,vx,vy,angular_velocity,resting\r
            0,0.016666666666666666,ball,0.5,0.0,0.1,-3.0,1e-05,0.3333333333333333,false\r
            0,0.016666666666666666,1,1.0,0.0,0.1,-3.0,1e-05,0.3333333333333333,true\r
            2,0.05,0,0.5,2.0,0.1,-3.0,1e-05,0.3333333333333333,false\r

            """
        #expect(writer.text == expected)
    }

    @Test func nonFiniteNumbersAreWrittenPlainly() {
        let writer = CSVFrameWriter()
        writer.write(FrameReport(index: 0, time: 0, steps: 1, items: [
            .init(center: CGPoint(x: CGFloat.nan, y: CGFloat.infinity), angle: -.infinity,
                  velocity: CGPoint(x: -CGFloat.nan, y: 0))
        ]))
        #expect(writer.text.hasSuffix("\r\n0,0.0,0,nan,inf,-inf,nan,0.0,0.0,false\r\n"))
    }

    @Test(arguments: [
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nname", "\"crlf\r\nname\""),
        ("plain name", "plain name"),
        ("", ""),
        ("\"", "\"\"\"\""),
    ])
    func namesAreQuotedWhenNeeded(name: String, field: String) {
        #expect(CSVFrameWriter.escape(name) == field)
        let writer = CSVFrameWriter()
        writer.write(Self.report(index: 7, names: [name, "x"]))
        let records = Self.records(writer.text)
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.count == 10 })
        #expect(records[1][2] == name)
        #expect(records[2][2] == "x")
        #expect(records[1][0] == "7")
    }

    @Test func readerSplitsRFC4180Details() {
        #expect(Self.records("a,b\r\nc,d") == [["a", "b"], ["c", "d"]])
        #expect(Self.records("a,b\nc,d\n") == [["a", "b"], ["c", "d"]])
        #expect(Self.records("\"x,\"\"y\"\"\",\r\n") == [["x,\"y\"", ""]])
        #expect(Self.records(",\r\n\"\"\r\n") == [["", ""], [""]])
        #expect(Self.records("\"a\r\nb\"\r\n") == [["a\r\nb"]])
        #expect(Self.records("") == [])
    }

    static let awkwardDoubles: [Double] = [
        0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, -0.0, 0.0, 1e300, -1e300, 1e16, 123_456_789.123_456_78,
        .pi, -.pi, 0.1 + 0.2, 1e-5, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .ulpOfOne, 1 + .ulpOfOne, 9_007_199_254_740_992, 0x1.fffffffffffffp-1,
        .infinity, -.infinity,
    ]

    @Test func doublesRoundTripBitForBit() throws {
        let values = Self.awkwardDoubles
        let writer = CSVFrameWriter()
        for (index, value) in values.enumerated() {
            writer.write(FrameReport(index: index, time: value, steps: 1, items: [
                .init(name: "v", center: CGPoint(x: value, y: -value), angle: CGFloat(value),
                      velocity: CGPoint(x: value / 7, y: value * 3), angularVelocity: CGFloat(-value),
                      isResting: index % 2 == 0)
            ]))
        }
        let records = Self.records(writer.text)
        #expect(records.first == Self.header.split(separator: ",").map(String.init))
        try #require(records.count == values.count + 1)
        for (index, value) in values.enumerated() {
            let record = records[index + 1]
            let expected = [value, value, -value, value, value / 7, value * 3, -value]
            let fields = [record[1], record[3], record[4], record[5], record[6], record[7], record[8]]
            for (field, want) in zip(fields, expected) {
                let got = try #require(Double(field))
                #expect(got.bitPattern == want.bitPattern, "\(field) should read back as \(want)")
            }
            #expect(record[0] == String(index))
            #expect(record[9] == (index % 2 == 0 ? "true" : "false"))
        }
    }

    @Test func nanReadsBackAsNaN() throws {
        let writer = CSVFrameWriter()
        writer.write(FrameReport(index: 0, time: .nan, steps: 1, items: [.init(center: .zero)]))
        let record = Self.records(writer.text)[1]
        #expect(record[1] == "nan")
        #expect(try #require(Double(record[1])).isNaN)
    }

    @Test func fileModeStreamsRowsWithoutKeepingThem() throws {
        let path = Self.temporaryPath("stream")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVFrameWriter(path: path)
        let memory = CSVFrameWriter()
        func fileSize() throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.size] as? NSNumber)?.intValue ?? -1
        }
        var sizes: [Int] = []
        var largestBuffer = 0
        for index in 0 ..< 10_000 {
            let report = Self.report(index: index, names: ["a", "b, \"c\"", nil], value: Double(index) / 3)
            writer.write(report)
            memory.write(report)
            largestBuffer = max(largestBuffer, writer.bufferedByteCount)
            if index % 500 == 499 {
                sizes.append(try fileSize())
                #expect(writer.text.isEmpty)
            }
        }
        // The file grew while writing, and never lagged by more than one buffer.
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Set(sizes).count >= 10)
        #expect(largestBuffer < CSVFrameWriter.bufferCapacity + 1_024)
        #expect(writer.text == "")

        writer.flush()
        #expect(writer.bufferedByteCount == 0)
        writer.close()
        writer.close()  // harmless
        let finalSize = try fileSize()
        writer.write(Self.report(index: 10_000))  // ignored
        writer.flush()
        #expect(try fileSize() == finalSize)
        #expect(writer.isClosed)
        #expect(writer.error == nil)

        let contents = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(contents == Data(memory.text.utf8))
        #expect(Self.records(memory.text).count == 30_001)
    }

    @Test func fileIsCompleteAfterDeinit() throws {
        let path = Self.temporaryPath("deinit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let writer = try CSVFrameWriter(path: path)
            writer.write(Self.report(index: 0))
        }
        let memory = CSVFrameWriter()
        memory.write(Self.report(index: 0))
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        #expect(contents == memory.text)
    }

    @Test func fileModeReplacesAnExistingFile() throws {
        let path = Self.temporaryPath("replace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 65, count: 100_000).write(to: URL(fileURLWithPath: path))
        let writer = try CSVFrameWriter(path: path)
        writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.header + "\r\n")
    }

    @Test func unwritablePathThrows() {
        #expect(throws: (any Error).self) {
            _ = try CSVFrameWriter(path: "/nonexistent-directory-\(UUID().uuidString)/frames.csv")
        }
    }

    @Test func inMemoryWriterIgnoresWritesAfterClose() {
        let writer = CSVFrameWriter()
        writer.close()
        writer.write(Self.report(index: 0))
        writer.close()
        #expect(writer.text == Self.header + "\r\n")
    }
}

@Suite("FrameReport")
struct FrameReportTests {
    @Test func codableRoundTrip() throws {
        let report = FrameReport(index: 3, time: 0.05, steps: 2, items: [
            .init(name: "box", center: CGPoint(x: 0.1, y: 1.0 / 3.0), angle: -0.0,
                  velocity: CGPoint(x: 1e-300, y: -2), angularVelocity: 0.25, isResting: true),
            .init(center: CGPoint(x: 5, y: 6)),
        ])
        let data = try JSONEncoder().encode(report)
        let decoded = try JSONDecoder().decode(FrameReport.self, from: data)
        #expect(decoded == report)
        #expect(decoded.items[1].name == nil)
        #expect(decoded.items[1].velocity == .zero)
        #expect(decoded.items[1].isResting == false)
    }
}
