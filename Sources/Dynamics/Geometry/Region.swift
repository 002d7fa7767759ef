import Foundation

/// An area of the plane, centred on the origin: UIKit's `UIRegion` as a value type.
///
/// A field behaviour acts only inside its `FieldBehavior.region`, measured in points from the
/// field's `position`. Regions start as a circle, a rectangle or ``infinite`` and combine freely
/// with ``inverse()``, ``byUnion(with:)``, ``byDifference(from:)`` and ``byIntersection(with:)``;
/// any nesting works.
///
/// Boundaries follow UIKit: a circle contains its rim (`x² + y² ≤ r²`), a rectangle does not
/// contain its edges (`|x| < w/2 && |y| < h/2`). Regions contain finite points only.
///
/// Equality is structural: two regions are equal when they were built from equal shapes by the
/// same operations (after the obvious simplifications, such as `r.inverse().inverse() == r` and
/// `infinite.inverse() == empty`), not whenever they happen to cover the same points.
public struct Region: Sendable, Equatable {
    // Why a postfix program instead of an indirect enum tree: evaluation, equality and coding are
    // then plain loops over an array, so no composition, however deep, can overflow the stack,
    // and `contains` needs no allocation (a 64-bit word is the operand stack up to depth 64).
    enum Instruction: Sendable, Equatable, Codable {
        /// Pushes false: the empty region.
        case nothing
        /// Pushes true: the whole plane.
        case everything
        /// Pushes `x² + y² ≤ radius²`.
        case circle(radius: Double)
        /// Pushes `|x| < width/2 && |y| < height/2`.
        case rectangle(width: Double, height: Double)
        /// Negates the top of the stack.
        case inverse
        /// Pops b, a; pushes a ∨ b.
        case union
        /// Pops b, a; pushes a ∧ b.
        case intersection
        /// Pops b, a; pushes a ∧ ¬b.
        case difference
    }

    /// The region in postfix form; always leaves exactly one value on the stack.
    private(set) var program: [Instruction]

    private init(program: [Instruction]) {
        self.program = program
    }

    // MARK: Primitives

    /// A disc of `radius` points centred on the origin, rim included (`x² + y² ≤ radius²`).
    ///
    /// A radius of 0 contains only the origin; `+infinity` contains every point. A negative or NaN
    /// radius gives the empty region (UIKit leaves these undefined).
    public init(radius: CGFloat) {
        let r = Double(radius)
        if r == .infinity {
            program = [.everything]
        } else if r >= 0 {
            program = [.circle(radius: r)]
        } else {
            program = [.nothing]
        }
    }

    /// A rectangle of `size` points centred on the origin, edges excluded
    /// (`|x| < width/2 && |y| < height/2`).
    ///
    /// A zero width or height gives the empty region; an infinite one is unbounded along that axis.
    /// A negative or NaN width or height gives the empty region (UIKit leaves these undefined).
    public init(size: CGSize) {
        let w = Double(size.width), h = Double(size.height)
        if w > 0, h > 0 {
            program = w == .infinity && h == .infinity ? [.everything] : [.rectangle(width: w, height: h)]
        } else {
            program = [.nothing]
        }
    }

    /// The region containing every point; the default region of a field.
    public static var infinite: Region { Region(program: [.everything]) }

    /// The region containing no point (`Region.infinite.inverse()`).
    public static var empty: Region { Region(program: [.nothing]) }

    // MARK: Combining

    /// The complement: every point not in this region.
    public func inverse() -> Region {
        switch program {
        case [.everything]: return .empty
        case [.nothing]: return .infinite
        default:
            if program.last == .inverse { return Region(program: Array(program.dropLast())) }
            return Region(program: program + [.inverse])
        }
    }

    /// The points in this region, in `region`, or in both.
    public func byUnion(with region: Region) -> Region {
        if isEverything || region.isNothing { return self }
        if isNothing || region.isEverything { return region }
        return Region(program: program + region.program + [.union])
    }

    /// The points in this region that are not in `region` (self minus the argument, as UIKit).
    public func byDifference(from region: Region) -> Region {
        if isNothing || region.isNothing { return self }
        if region.isEverything { return .empty }
        if isEverything { return region.inverse() }
        return Region(program: program + region.program + [.difference])
    }

    /// The points in both this region and `region`.
    public func byIntersection(with region: Region) -> Region {
        if isNothing || region.isEverything { return self }
        if isEverything || region.isNothing { return region }
        return Region(program: program + region.program + [.intersection])
    }

    // MARK: Testing points

    /// Whether `point`, in points relative to the region's centre, lies in the region.
    /// A non-finite point is never contained.
    public func contains(_ point: CGPoint) -> Bool {
        contains(x: Double(point.x), y: Double(point.y))
    }

    /// `contains(_:)` without building a `CGPoint`; allocation-free for compositions up to
    /// 64 operands deep (deeper ones fall back to an array stack).
    func contains(x: Double, y: Double) -> Bool {
        guard x.isFinite, y.isFinite else { return false }
        // one primitive (most fields' regions): no stack machine, once per item per field per step
        if program.count == 1 { return Self.primitive(program[0], x, y) }
        var stack: UInt64 = 0  // bit 0 is the top of the stack
        var depth = 0
        for instruction in program {
            switch instruction {
            case .nothing, .everything, .circle, .rectangle:
                guard depth < 64 else { return containsUsingArrayStack(x: x, y: y) }
                stack = stack << 1 | (Self.primitive(instruction, x, y) ? 1 : 0)
                depth += 1
            case .inverse:
                stack ^= 1
            case .union, .intersection, .difference:
                let b = stack & 1
                stack >>= 1
                let a = stack & 1
                let value: UInt64
                switch instruction {
                case .union: value = a | b
                case .intersection: value = a & b
                default: value = a & (b ^ 1)
                }
                stack = (stack & ~1) | value
                depth -= 1
            }
        }
        return stack & 1 == 1
    }

    // MARK: Private

    private var isEverything: Bool { program == [.everything] }
    private var isNothing: Bool { program == [.nothing] }

    private static func primitive(_ instruction: Instruction, _ x: Double, _ y: Double) -> Bool {
        switch instruction {
        case .everything: return true
        case .circle(let r): return x * x + y * y <= r * r
        case .rectangle(let w, let h): return abs(x) < w / 2 && abs(y) < h / 2
        default: return false
        }
    }

    private func containsUsingArrayStack(x: Double, y: Double) -> Bool {
        var stack: [Bool] = []
        for instruction in program {
            switch instruction {
            case .nothing, .everything, .circle, .rectangle:
                stack.append(Self.primitive(instruction, x, y))
            case .inverse:
                stack[stack.count - 1].toggle()
            case .union, .intersection, .difference:
                let b = stack.removeLast()
                let a = stack.removeLast()
                switch instruction {
                case .union: stack.append(a || b)
                case .intersection: stack.append(a && b)
                default: stack.append(a && !b)
                }
            }
        }
        return stack.last ?? false
    }

    /// Whether `program` leaves exactly one value and never pops an empty stack.
    private static func isWellFormed(_ program: [Instruction]) -> Bool {
        var depth = 0
        for instruction in program {
            switch instruction {
            case .nothing, .everything, .circle, .rectangle: depth += 1
            case .inverse: if depth < 1 { return false }
            case .union, .intersection, .difference:
                if depth < 2 { return false }
                depth -= 1
            }
        }
        return depth == 1
    }
}

extension Region: Codable {
    private enum CodingKeys: String, CodingKey {
        case program
    }

    /// Decodes a region, rejecting (with `DecodingError.dataCorrupted`) a program that does not
    /// describe exactly one region.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let program = try container.decode([Instruction].self, forKey: .program)
        guard Self.isWellFormed(program) else {
            throw DecodingError.dataCorruptedError(forKey: .program, in: container,
                                                   debugDescription: "Malformed region program")
        }
        self.init(program: program)
    }

    /// Encodes the region's postfix program.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(program, forKey: .program)
    }
}

extension Region {
    /// Appends the program to a snapshot tape: its length, then one code per instruction
    /// (0 nothing, 1 everything, 2 circle r, 3 rectangle w h, 4 inverse, 5 union, 6 intersection,
    /// 7 difference).
    func save(to writer: inout SnapshotWriter) {
        writer.add(program.count)
        for instruction in program {
            switch instruction {
            case .nothing: writer.add(0)
            case .everything: writer.add(1)
            case .circle(let r): writer.add(2); writer.add(r)
            case .rectangle(let w, let h): writer.add(3); writer.add(w); writer.add(h)
            case .inverse: writer.add(4)
            case .union: writer.add(5)
            case .intersection: writer.add(6)
            case .difference: writer.add(7)
            }
        }
    }

    /// Reads what `save(to:)` wrote; a malformed program throws.
    static func restore(from reader: inout SnapshotReader) throws -> Region {
        var program: [Instruction] = []
        for _ in 0..<(try reader.count()) {
            switch try reader.int(0...7) {
            case 0: program.append(.nothing)
            case 1: program.append(.everything)
            case 2: program.append(.circle(radius: try reader.double()))
            case 3: program.append(.rectangle(width: try reader.double(), height: try reader.double()))
            case 4: program.append(.inverse)
            case 5: program.append(.union)
            case 6: program.append(.intersection)
            default: program.append(.difference)
            }
        }
        guard isWellFormed(program) else { throw reader.corrupt("a field region is malformed") }
        return Region(program: program)
    }
}

extension Region: CustomStringConvertible {
    /// A readable formula, e.g. `(circle(r: 50) − rect(20 × 10))`, in points.
    public var description: String {
        var stack: [String] = []
        for instruction in program {
            switch instruction {
            case .nothing: stack.append("empty")
            case .everything: stack.append("infinite")
            case .circle(let r): stack.append("circle(r: \(r))")
            case .rectangle(let w, let h): stack.append("rect(\(w) × \(h))")
            case .inverse: stack.append("¬" + (stack.popLast() ?? "?"))
            case .union, .intersection, .difference:
                let b = stack.popLast() ?? "?", a = stack.popLast() ?? "?"
                let symbol = instruction == .union ? "∪" : instruction == .intersection ? "∩" : "−"
                stack.append("(\(a) \(symbol) \(b))")
            }
        }
        return stack.last ?? "empty"
    }
}
