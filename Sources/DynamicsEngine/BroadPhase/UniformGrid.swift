/// The broad phase: a uniform grid of square cells, hashed into a fixed table.
///
/// Why a grid: UIKit scenes are crowds of similar-sized items, where a grid finds neighbours in
/// constant time with no tree to keep balanced (Chipmunk's measurements: a spatial hash beats an AABB
/// tree where things move fast or fall through each other). Why hashed: the world has no bounds, so
/// cell (x, y) maps to a bucket of a power-of-two table; a collision of two cells in one bucket only
/// adds candidates that the box test rejects.
///
/// Layers, so big and static shapes cost little:
/// - the movable layer (dynamic and kinematic shapes of ordinary size) is rebuilt every step by a
///   counting sort — a linear, cache-friendly pass with no per-cell lists to maintain;
/// - the static layer is rebuilt only when static shapes change;
/// - "large" shapes (covering more than `largeCellLimit` cells: a 4 000 pt floor, a tumbler's walls)
///   live in short lists that are tested by box against each moved proxy, instead of being written
///   into hundreds of cells.
/// Only proxies whose fat box grew this step ("moved") look for new pairs; a pair found from two
/// cells is reported only from the cell holding the lower corner of the boxes' overlap, so no set is
/// needed to remove duplicates.
/// A proxy's fat box stored in the cell list itself, so scanning a cell never touches the shapes.
struct GridEntry {
    var box: AABB
    var proxy: Int32
}

struct UniformGrid {
    var cellSize: Float = 100
    var invCellSize: Float = 0.01
    /// A proxy covering more cells than this goes to a large list.
    var largeCellLimit = 64

    // Movable layer.
    private(set) var movableStart: [Int32] = [0, 0]
    private(set) var movableEntries: [GridEntry] = []
    private(set) var movableMask = 0
    private(set) var movableLarge: [Int32] = []
    private(set) var movableSmall: [Int32] = []
    // Static layer.
    private(set) var staticStart: [Int32] = [0, 0]
    private(set) var staticEntries: [GridEntry] = []
    private(set) var staticMask = 0
    private(set) var staticLarge: [Int32] = []
    private(set) var staticSmall: [Int32] = []
    var staticDirty = true

    /// Cell coordinates of a coordinate; far-away or non-finite values clamp instead of trapping.
    @inline(__always)
    func cell(_ v: Float) -> Int32 {
        let c = (v * invCellSize).rounded(.down)
        if c.isNaN { return 0 }
        return Int32(clamp(c, -1_000_000_000, 1_000_000_000))
    }

    @inline(__always)
    static func bucket(_ ix: Int32, _ iy: Int32, _ mask: Int) -> Int {
        let h = (UInt32(bitPattern: ix) &* 73_856_093) ^ (UInt32(bitPattern: iy) &* 19_349_663)
        return Int(h) & mask
    }

    @inline(__always)
    func cellRange(_ box: AABB) -> (x0: Int32, y0: Int32, x1: Int32, y1: Int32) {
        (cell(box.lower.x), cell(box.lower.y), cell(box.upper.x), cell(box.upper.y))
    }

    @inline(__always)
    func cellCount(_ box: AABB) -> Int {
        let r = cellRange(box)
        return (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
    }

    mutating func setCellSize(_ size: Float) {
        let s = size.isFinite && size > 0 ? size : 100
        if s != cellSize { cellSize = s; invCellSize = 1 / s; staticDirty = true }
    }

    /// Rebuilds one layer from `proxies` (shape indices) by counting sort.
    private func build(_ proxies: [Int32], shapes: UnsafePointer<Shape>,
                       start: inout [Int32], entries: inout [GridEntry], mask: inout Int, large: inout [Int32], small: inout [Int32]) {
        large.removeAll(keepingCapacity: true)
        small.removeAll(keepingCapacity: true)
        var total = 0
        for p in proxies {
            let n = cellCount(shapes[Int(p)].fatAABB)
            if n > largeCellLimit { large.append(p) } else { small.append(p); total += n }
        }
        var tableSize = 64
        while tableSize < total * 2 { tableSize <<= 1 }
        mask = tableSize - 1
        if start.count != tableSize + 1 {
            start = Array(repeating: 0, count: tableSize + 1)
        } else {
            for i in 0..<start.count { start[i] = 0 }
        }
        if entries.count < total { entries = Array(repeating: GridEntry(box: AABB(lower: .zero, upper: .zero), proxy: -1), count: total) }
        let m = mask
        start.withUnsafeMutableBufferPointer { st in
            for p in small {
                let r = cellRange(shapes[Int(p)].fatAABB)
                var iy = r.y0
                while iy <= r.y1 {
                    var ix = r.x0
                    while ix <= r.x1 { st[UniformGrid.bucket(ix, iy, m) + 1] += 1; ix += 1 }
                    iy += 1
                }
            }
            for i in 1..<st.count { st[i] += st[i - 1] }
            var fill = Array(st[0..<(st.count - 1)])
            entries.withUnsafeMutableBufferPointer { en in
                for p in small {
                    let box = shapes[Int(p)].fatAABB
                    let r = cellRange(box)
                    var iy = r.y0
                    while iy <= r.y1 {
                        var ix = r.x0
                        while ix <= r.x1 {
                            let b = UniformGrid.bucket(ix, iy, m)
                            en[Int(fill[b])] = GridEntry(box: box, proxy: p)
                            fill[b] += 1
                            ix += 1
                        }
                        iy += 1
                    }
                }
            }
        }
    }

    mutating func rebuildMovable(_ proxies: [Int32], shapes: UnsafePointer<Shape>) {
        var s = movableStart, e = movableEntries, m = movableMask, l = movableLarge, sm = movableSmall
        movableStart = []; movableEntries = []; movableLarge = []; movableSmall = []
        build(proxies, shapes: shapes, start: &s, entries: &e, mask: &m, large: &l, small: &sm)
        movableStart = s; movableEntries = e; movableMask = m; movableLarge = l; movableSmall = sm
    }

    mutating func rebuildStatic(_ proxies: [Int32], shapes: UnsafePointer<Shape>) {
        var s = staticStart, e = staticEntries, m = staticMask, l = staticLarge, sm = staticSmall
        staticStart = []; staticEntries = []; staticLarge = []; staticSmall = []
        build(proxies, shapes: shapes, start: &s, entries: &e, mask: &m, large: &l, small: &sm)
        staticStart = s; staticEntries = e; staticMask = m; staticLarge = l; staticSmall = sm
        staticDirty = false
    }

    /// Calls `report` once for every proxy of a layer whose fat box overlaps `box` (the querying
    /// proxy `exclude` left out). Duplicates across cells are removed by the lower-corner rule.
    @inline(__always)
    func query(_ box: AABB, exclude: Int32, isStatic: Bool, shapes: UnsafePointer<Shape>, _ report: (Int32) -> Void) {
        if isStatic {
            for p in staticLarge where p != exclude && shapes[Int(p)].fatAABB.overlaps(box) { report(p) }
            if staticEntries.isEmpty { return }
            let r = cellRange(box)
            let cells = (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
            if cells > staticSmall.count {
                // A huge moving box (up to 10⁶ pt, ~10⁹ cells): test every small static proxy instead.
                for p in staticSmall where p != exclude && shapes[Int(p)].fatAABB.overlaps(box) { report(p) }
                return
            }
            staticStart.withUnsafeBufferPointer { st in
                staticEntries.withUnsafeBufferPointer { en in
                    scan(box, exclude: exclude, start: st, entries: en, mask: staticMask, shapes: shapes, report)
                }
            }
        } else {
            for p in movableLarge where p != exclude && shapes[Int(p)].fatAABB.overlaps(box) { report(p) }
            if movableEntries.isEmpty { return }
            let r = cellRange(box)
            let cells = (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
            if cells > movableSmall.count {
                // Cheaper to test every small proxy than to walk this many cells.
                for p in movableSmall where p != exclude && shapes[Int(p)].fatAABB.overlaps(box) { report(p) }
                return
            }
            movableStart.withUnsafeBufferPointer { st in
                movableEntries.withUnsafeBufferPointer { en in
                    scan(box, exclude: exclude, start: st, entries: en, mask: movableMask, shapes: shapes, report)
                }
            }
        }
    }

    @inline(__always)
    private func scan(_ box: AABB, exclude: Int32, start st: UnsafeBufferPointer<Int32>, entries en: UnsafeBufferPointer<GridEntry>,
                      mask: Int, shapes: UnsafePointer<Shape>, _ report: (Int32) -> Void) {
        if en.isEmpty { return }
        let r = cellRange(box)
        var iy = r.y0
        while iy <= r.y1 {
            var ix = r.x0
            while ix <= r.x1 {
                let b = UniformGrid.bucket(ix, iy, mask)
                var k = Int(st[b])
                let end = Int(st[b + 1])
                while k < end {
                    let e = en[k]
                    k += 1
                    let other = e.box
                    if !other.overlaps(box) { continue }
                    let p = e.proxy
                    if p == exclude { continue }
                    // report only from the cell holding the overlap's lower corner
                    let cx = cell(Swift.max(other.lower.x, box.lower.x))
                    let cy = cell(Swift.max(other.lower.y, box.lower.y))
                    if cx != ix || cy != iy { continue }
                    report(p)
                }
                ix += 1
            }
            iy += 1
        }
    }
}
