/// What the pair test needs to know about a proxy besides its box.
struct ProxyFlags: OptionSet {
    let rawValue: UInt8
    /// Its fat box grew this step, so it runs a search of its own.
    static let enlarged = ProxyFlags(rawValue: 1)
    static let segment = ProxyFlags(rawValue: 2)
    static let dynamicBody = ProxyFlags(rawValue: 4)
    /// Its body has joints: a pair with another jointed body needs the joint lookup.
    static let jointedBody = ProxyFlags(rawValue: 8)
    /// Its filter is not the default one, so the filters must be compared.
    static let customFilter = ProxyFlags(rawValue: 16)
}

/// A proxy's fat box, body and flags stored in the cell list itself, so scanning a cell and
/// rejecting a candidate never touch the shapes or bodies (a cache miss each).
struct GridEntry {
    var box: AABB
    var proxy: Int32
    var body: Int32
    var flags: ProxyFlags
    /// The low 8 bits of the box's lowest cell (x, y), for the scan's lower-corner rule without
    /// recomputing cells. A small proxy spans at most `UniformGrid.largeSideLimit` (64) cells a side,
    /// so within the cells it really covers the low bits are unambiguous.
    var lowCellX: UInt8 = 0
    var lowCellY: UInt8 = 0

    init(box: AABB, proxy: Int32, body: Int32, flags: ProxyFlags) {
        self.box = box; self.proxy = proxy; self.body = body; self.flags = flags
    }

    /// Where `box` lies in an entry (`GridQuery.box(at:)` loads it whole).
    @inline(__always) static var boxOffset: Int { MemoryLayout<GridEntry>.offset(of: \GridEntry.box)! }

    /// Filler for table slots not yet written.
    static let unused = GridEntry(box: AABB(lower: .zero, upper: .zero), proxy: -1, body: -1, flags: [])

    /// What an entry becomes when its proxy leaves its cells between rebuilds: an empty box (lower
    /// +∞, upper −∞) that no finite box overlaps, and no proxy (the pair test skips negative ones).
    static let vacated = GridEntry(box: AABB(lower: Vec2(.infinity, .infinity), upper: Vec2(-.infinity, -.infinity)),
                                   proxy: -1, body: -1, flags: [])

    /// The entry of shape `p` as it is now. `conservative` is for the static layer, which is rebuilt
    /// only when static shapes change, so its bits may go stale: it claims joints and a custom filter
    /// (the pair test then looks them up) and never claims `enlarged` (at worst a pair is found from
    /// both sides, and the search removes duplicates).
    @inline(__always)
    init(_ p: Int32, shapes: UnsafePointer<Shape>, bodies: UnsafePointer<Body>, conservative: Bool) {
        let s = shapes[Int(p)]
        box = s.fatAABB
        proxy = p
        body = s.body
        var f: ProxyFlags = []
        if s.enlarged && !conservative { f.insert(.enlarged) }
        if s.kind == .segment { f.insert(.segment) }
        let b = bodies[Int(s.body)]
        if b.type == .dynamic { f.insert(.dynamicBody) }
        if conservative || b.jointCount > 0 { f.insert(.jointedBody) }
        if conservative || s.filter != Filter() { f.insert(.customFilter) }
        flags = f
    }
}

/// Where a layer's cells go in its table.
///
/// Why rows: a query walks a block of neighbouring cells, and a hash scatters them across the table
/// (a cache miss per cell). When the occupied cells fit the table, they are numbered row by row from
/// the lowest occupied cell instead, so a row of cells is a run of consecutive buckets; rows are a
/// power of two wide, and anything outside the occupied block wraps around the table (a shared
/// bucket only adds candidates the box test rejects). A sparse world (clusters far apart) falls back
/// to the hash, where wrapping rows would pile unrelated cells into the same buckets.
struct BucketLayout {
    var originX = 0
    var originY = 0
    var rowShift = 0
    var mask = 0
    var hashed = true

    /// The part of a bucket index that depends on the row only, computed once per row of a walk.
    /// Hashed: the row's hash term. Rows: the row's first bucket less the block's left edge.
    @inline(__always)
    func row(_ iy: Int32) -> Int {
        // Int, not Int32: cells are clamped to ±10⁹, so differences and shifts stay far from overflow.
        hashed ? Int(UInt32(bitPattern: iy) &* 19_349_663) : ((Int(iy) &- originY) &<< rowShift) &- originX
    }

    /// The bucket of cell `ix` in a row (`row(iy)`).
    @inline(__always)
    func bucket(row: Int, _ ix: Int32) -> Int {
        if hashed { return Int((UInt32(bitPattern: ix) &* 73_856_093) ^ UInt32(truncatingIfNeeded: row)) & mask }
        return (row &+ Int(ix)) & mask
    }

    /// Calls `body` with the bucket of every cell of `r`, row by row (a bucket shared by two of
    /// the cells comes twice).
    @inline(__always)
    func forEachBucket(_ r: (x0: Int32, y0: Int32, x1: Int32, y1: Int32), _ body: (Int) -> Void) {
        var iy = r.y0
        while iy <= r.y1 {
            let row = row(iy)
            var ix = r.x0
            while ix <= r.x1 {
                body(bucket(row: row, ix))
                ix += 1
            }
            iy += 1
        }
    }
}

/// One layer of the grid: the cell table (bucket starts and the entries they index), how cells map
/// to buckets, and the proxies too large for cells.
struct GridLayer {
    var start: [Int32] = [0, 0]
    var entries: [GridEntry] = []
    var layout = BucketLayout()
    var large: [GridEntry] = []
    /// Every proxy in the cells, once each (for boxes too large to walk cell by cell): the first
    /// `smallCount` entries (the array only grows, so a rebuild writes it in place).
    var small: [GridEntry] = []
    var smallCount = 0
    /// Each shape's index in `small`, or −1 (not a small proxy of this layer). In the static
    /// layer also its index i in `large`, as −2 − i, so either can be found to remove it.
    var slotOf: [Int32] = []
    /// Proxies that moved to other cells since the last rebuild: searched box by box, like `large`,
    /// until the next rebuild puts them back in cells. Their cell entries are `vacated`.
    var extra: [GridEntry] = []
    /// The static layer's buckets end where `end` says, with room up to `limit` (both per bucket,
    /// indices into `entries`), so one proxy is added or removed in the buckets of its own cells
    /// (`UniformGrid.insertStatic`, `removeStatic`). Empty in the movable layer, whose bucket b
    /// ends where b + 1 starts.
    var end: [Int32] = []
    var limit: [Int32] = []
    /// Static layer: the entries in use, holes left by moved buckets included (a bucket that
    /// outgrows its room moves to the end, with twice the room), and those in buckets.
    var used = 0
    var live = 0
    /// Static layer: proxies added or removed in place since the last rebuild.
    var changes = 0
}

/// The broad phase: a uniform grid of square cells, mapped into a power-of-two table.
///
/// Why a grid: UIKit scenes are crowds of similar-sized items, where a grid finds neighbours in
/// constant time with no tree to keep balanced (Chipmunk's measurements: a spatial hash beats an AABB
/// tree where things move fast or fall through each other). Why a table: the world has no bounds, so
/// cell (x, y) maps to a bucket (`BucketLayout`: row by row over the occupied block, or hashed when
/// that block is sparse); two cells in one bucket only add candidates that the box test rejects.
///
/// Layers, so big and static shapes cost little:
/// - the movable layer (dynamic and kinematic shapes of ordinary size) is built by a counting sort —
///   a linear, cache-friendly pass with no per-cell lists to maintain. Between rebuilds, the few
///   proxies that moved are updated in place (`updateMovable`): a settling pile moves a handful of boxes a
///   step, and rebuilding all of them for that was a twentieth of a pyramid's step;
/// - the static layer is rebuilt only when static shapes change;
/// - "large" shapes (covering more than `largeCellLimit` cells: a 4 000 pt floor, a tumbler's walls)
///   live in short lists that are tested by box against each moved proxy, instead of being written
///   into hundreds of cells.
/// Only proxies whose fat box grew this step ("moved") look for new pairs; a pair found from two
/// cells is reported only from the cell holding the lower corner of the boxes' overlap, so no set is
/// needed to remove duplicates (two cells sharing a bucket can still report one twice; the pair
/// search sorts its few new pairs and drops repeats).
struct UniformGrid {
    var cellSize: Float = 100
    var invCellSize: Float = 0.01
    /// A proxy covering more cells than this, or more than `largeSideLimit` a side, goes to a large
    /// list. Every pair query tests every entry of the large lists, so a proxy is better written
    /// into its cells while that costs less than being tested by each moved proxy: a washer's 40
    /// drum walls of about 250 cells each were 40 more tests in each of 8 000 queries a step.
    var largeCellLimit = 1024
    /// The most cells a small proxy spans a side: at most 255 keeps the low 8 bits of its cells
    /// (`GridEntry.lowCellX`) unambiguous.
    static let largeSideLimit: Int32 = 64

    /// Whether a proxy covering the cells `r` goes to a large list (see `largeCellLimit`).
    @inline(__always)
    func isLarge(_ r: (x0: Int32, y0: Int32, x1: Int32, y1: Int32)) -> Bool {
        UniformGrid.isLarge(r, limit: largeCellLimit)
    }

    /// `isLarge` with the cell limit given.
    @inline(__always)
    static func isLarge(_ r: (x0: Int32, y0: Int32, x1: Int32, y1: Int32), limit: Int) -> Bool {
        // the side test first: a huge range's cell count is only defined in Int
        r.x1 - r.x0 >= largeSideLimit || r.y1 - r.y0 >= largeSideLimit || cellCount(r) > limit
    }

    private(set) var movable = GridLayer()
    private(set) var statics = GridLayer()
    var staticDirty = true
    /// Set when something the movable layer records besides boxes may have changed — the proxy
    /// lists (shapes made or destroyed, body types), joints (`jointedBody`), filters, the cell size:
    /// its next update is a rebuild.
    var movableDirty = true
    /// The proxies whose movable entries carry `.enlarged`: the last update's moved proxies.
    private var flagged: [Int32] = []
    /// Counts, for tests: movable updates done in place, and proxies moved to `extra` by them.
    private(set) var inPlaceUpdates = 0
    private(set) var relocations = 0
    /// Scratch for a rebuild: the cell range (x0, y0, x1, y1) of each small proxy.
    private var cellRanges: [SIMD4<Int32>] = []
    /// Scratch for a rebuild on several threads: each part's bucket counts, then its next places.
    private var partCounts: [Int32] = []
    /// The fewest movable proxies rebuilt on several threads (`buildInParallel`): below it the
    /// five stages' hand-offs cost more than they save.
    static let parallelBuildMinimum = 1024

    /// Cell coordinates of a coordinate; far-away or non-finite values clamp instead of trapping.
    @inline(__always)
    static func cell(_ v: Float, _ invCellSize: Float) -> Int32 {
        let c = v * invCellSize
        guard abs(c) < 1_000_000_000 else { return c.isNaN ? 0 : (c < 0 ? -1_000_000_000 : 1_000_000_000) }
        // floor by truncation and a correction: `rounded(.down)` is a libm call on baseline x86-64
        let t = Int32(c)
        return Float(t) > c ? t - 1 : t
    }

    @inline(__always)
    static func cellRange(_ box: AABB, _ invCellSize: Float) -> (x0: Int32, y0: Int32, x1: Int32, y1: Int32) {
        (cell(box.lower.x, invCellSize), cell(box.lower.y, invCellSize), cell(box.upper.x, invCellSize), cell(box.upper.y, invCellSize))
    }

    /// How many cells a range covers (in Int: a huge range's count overflows Int32).
    @inline(__always)
    static func cellCount(_ r: (x0: Int32, y0: Int32, x1: Int32, y1: Int32)) -> Int {
        (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
    }

    mutating func setCellSize(_ size: Float) {
        let s = size.isFinite && size > 0 ? size : 100
        if s != cellSize { cellSize = s; invCellSize = 1 / s; staticDirty = true; movableDirty = true }
    }

    /// Empties `layer` for a rebuild from `n` proxies: no large or extra entries, no slots, and
    /// `small` and `ranges` at least `n` long. The small proxies and their cell ranges are then
    /// written through pointers: appending checks capacity and uniqueness per proxy, which was a
    /// fifth of a rebuild.
    private static func clear(_ layer: inout GridLayer, for n: Int, shapeCount: Int, ranges: inout [SIMD4<Int32>]) {
        layer.large.removeAll(keepingCapacity: true)
        layer.extra.removeAll(keepingCapacity: true)
        if layer.slotOf.count != shapeCount { layer.slotOf = Array(repeating: -1, count: shapeCount) } else {
            layer.slotOf.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        }
        if layer.small.count < n { layer.small = Array(repeating: GridEntry.unused, count: n) }
        if ranges.count < n { ranges = Array(repeating: .zero, count: n) }
    }

    /// Rebuilds one layer from `proxies` (shape indices) by counting sort. `conservative`: the
    /// static layer (see `GridEntry`), which also records its large proxies' slots and the bucket
    /// ends for changes in place.
    private func build(_ proxies: [Int32], shapes: UnsafePointer<Shape>, shapeCount: Int, bodies: UnsafePointer<Body>,
                       conservative: Bool, into layer: inout GridLayer, ranges: inout [SIMD4<Int32>]) {
        let n = proxies.count
        UniformGrid.clear(&layer, for: n, shapeCount: shapeCount, ranges: &ranges)
        var count = 0, total = 0
        var lowX = Int32.max, lowY = Int32.max, highX = Int32.min, highY = Int32.min
        var large: [GridEntry] = []
        swap(&large, &layer.large)
        layer.small.withUnsafeMutableBufferPointer { sm in
            ranges.withUnsafeMutableBufferPointer { rs in
            layer.slotOf.withUnsafeMutableBufferPointer { slots in
                for p in proxies {
                    var e = GridEntry(p, shapes: shapes, bodies: bodies, conservative: conservative)
                    let r = UniformGrid.cellRange(e.box, invCellSize)
                    if isLarge(r) {
                        if conservative && Int(p) < slots.count { slots[Int(p)] = -2 - Int32(large.count) }
                        large.append(e)
                        continue
                    }
                    e.lowCellX = UInt8(truncatingIfNeeded: r.x0)
                    e.lowCellY = UInt8(truncatingIfNeeded: r.y0)
                    sm[count] = e
                    if Int(p) < slots.count { slots[Int(p)] = Int32(count) }
                    // kept for the two passes below: computing cells is most of a rebuild's arithmetic
                    rs[count] = SIMD4(r.x0, r.y0, r.x1, r.y1)
                    count += 1
                    total += UniformGrid.cellCount(r)
                    lowX = Swift.min(lowX, r.x0); lowY = Swift.min(lowY, r.y0)
                    highX = Swift.max(highX, r.x1); highY = Swift.max(highY, r.y1)
                }
            }
            }
        }
        swap(&large, &layer.large)
        layer.smallCount = count
        layer.layout = UniformGrid.layout(count: count, total: total, low: (lowX, lowY), high: (highX, highY))
        let tableSize = layer.layout.mask + 1
        if layer.start.count != tableSize + 1 { layer.start = Array(repeating: 0, count: tableSize + 1) }
        if layer.entries.count < total { layer.entries = Array(repeating: GridEntry.unused, count: total) }
        let m = layer.layout
        // Counting sort in place: count each bucket's entries into its slot, turn the counts into
        // running ends, then fill each bucket from its end down. The slot then holds the bucket's
        // start, and the next slot its end, with no second cursor array. Unchecked pointers: every
        // bucket index is masked to the table, and the entries number exactly `total`.
        layer.start.withUnsafeMutableBufferPointer { stBuf in
            let st = stBuf.baseAddress!
            stBuf.update(repeating: 0)
            ranges.withUnsafeBufferPointer { rsBuf in
                let rs = rsBuf.baseAddress!
                for k in 0..<count {
                    let r = rs[k]
                    var iy = r.y
                    while iy <= r.w {
                        let row = m.row(iy)
                        var ix = r.x
                        while ix <= r.z { st[m.bucket(row: row, ix)] += 1; ix += 1 }
                        iy += 1
                    }
                }
                // the running sum in a register, not reloaded from the slot just written
                var sum: Int32 = 0
                for i in 0..<stBuf.count { sum &+= st[i]; st[i] = sum }
                layer.small.withUnsafeBufferPointer { smBuf in
                    let sm = smBuf.baseAddress!
                    layer.entries.withUnsafeMutableBufferPointer { enBuf in
                        let en = enBuf.baseAddress!
                        // backwards, so each bucket lists its proxies in proxy order
                        var k = count
                        while k > 0 {
                            k -= 1
                            let r = rs[k], e = sm[k]
                            var iy = r.w
                            while iy >= r.y {
                                let row = m.row(iy)
                                var ix = r.z
                                while ix >= r.x {
                                    let b = m.bucket(row: row, ix)
                                    let slot = st[b] - 1
                                    st[b] = slot
                                    en[Int(slot)] = e
                                    ix -= 1
                                }
                                iy -= 1
                            }
                        }
                    }
                }
            }
        }
        if conservative {
            // packed as built: each bucket ends where the next starts, with no room to spare
            layer.end.removeAll(keepingCapacity: true)
            layer.end.append(contentsOf: layer.start.dropFirst())
            layer.limit = layer.end
            layer.used = total
            layer.live = total
            layer.changes = 0
        }
    }

    /// What one part of a parallel rebuild found in its share of the proxies.
    private struct BuildPart {
        var small = 0
        var total = 0
        var low = (x: Int32.max, y: Int32.max)
        var high = (x: Int32.min, y: Int32.min)
        var large: [GridEntry] = []
    }

    /// `build` of the movable layer on the pool's threads, with the same result: the same entries
    /// in the same buckets in the same order, the same `small`, `large` and slots, so nothing
    /// downstream can tell how many threads built it.
    ///
    /// Why: a scene where more than an eighth of the proxies grow their boxes each step rebuilds
    /// the layer every step, and serially that was the largest part of the pair search that did
    /// not scale (junkyard: 7 % of a one-thread step). The counting sort splits into parts of the
    /// proxies, each counting into buckets of its own; the parts' counts are then turned into
    /// places bucket by bucket, part after part, so within a bucket the proxies stay in proxy
    /// order, as the serial sort leaves them. Five stages: gather (entries and cells, each part
    /// packing its small proxies at the front of its share), count, sum ranges of buckets, turn
    /// the counts into places, fill.
    private func buildInParallel(
        _ proxies: [Int32], shapes: UnsafePointer<Shape>, shapeCount: Int, bodies: UnsafePointer<Body>,
        pool: WorkerPool, into layer: inout GridLayer, ranges: inout [SIMD4<Int32>], counts: inout [Int32]
    ) {
        let n = proxies.count
        UniformGrid.clear(&layer, for: n, shapeCount: shapeCount, ranges: &ranges)
        let parts = pool.threadCount
        let results = UnsafeMutablePointer<BuildPart>.allocate(capacity: parts)
        results.initialize(repeating: BuildPart(), count: parts)
        defer { results.deinitialize(count: parts); results.deallocate() }
        let inv = invCellSize, limit = largeCellLimit
        // Gather: part j packs its small proxies at the front of its share, from n·j/parts.
        proxies.withUnsafeBufferPointer { list in
            layer.small.withUnsafeMutableBufferPointer { smBuf in
                ranges.withUnsafeMutableBufferPointer { rsBuf in
                    let list = list.baseAddress!, sm = smBuf.baseAddress!, rs = rsBuf.baseAddress!
                    pool.run(blocks: parts) { j in
                        var part = BuildPart()
                        var c = n * j / parts
                        for k in (n * j / parts)..<(n * (j + 1) / parts) {
                            var e = GridEntry(list[k], shapes: shapes, bodies: bodies, conservative: false)
                            let r = UniformGrid.cellRange(e.box, inv)
                            if UniformGrid.isLarge(r, limit: limit) { part.large.append(e); continue }
                            e.lowCellX = UInt8(truncatingIfNeeded: r.x0)
                            e.lowCellY = UInt8(truncatingIfNeeded: r.y0)
                            sm[c] = e
                            rs[c] = SIMD4(r.x0, r.y0, r.x1, r.y1)
                            c += 1
                            part.total += UniformGrid.cellCount(r)
                            part.low = (Swift.min(part.low.x, r.x0), Swift.min(part.low.y, r.y0))
                            part.high = (Swift.max(part.high.x, r.x1), Swift.max(part.high.y, r.y1))
                        }
                        part.small = c - n * j / parts
                        results[j] = part
                    }
                    // Serially: the shares close up (only behind a part that held large proxies).
                    var count = 0
                    for j in 0..<parts {
                        let from = n * j / parts
                        if from != count {
                            for k in 0..<results[j].small { sm[count + k] = sm[from + k]; rs[count + k] = rs[from + k] }
                        }
                        count += results[j].small
                    }
                }
            }
        }
        // The large lists join in part order, as the serial pass would have listed them.
        var count = 0, total = 0
        var low = (x: Int32.max, y: Int32.max), high = (x: Int32.min, y: Int32.min)
        for j in 0..<parts {
            let part = results[j]
            count += part.small
            total += part.total
            low = (Swift.min(low.x, part.low.x), Swift.min(low.y, part.low.y))
            high = (Swift.max(high.x, part.high.x), Swift.max(high.y, part.high.y))
            layer.large.append(contentsOf: part.large)
        }
        layer.smallCount = count
        let m = UniformGrid.layout(count: count, total: total, low: low, high: high)
        layer.layout = m
        let tableSize = m.mask + 1
        if layer.start.count != tableSize + 1 { layer.start = Array(repeating: 0, count: tableSize + 1) }
        if layer.entries.count < total { layer.entries = Array(repeating: GridEntry.unused, count: total) }
        if counts.count < parts * tableSize { counts = Array(repeating: 0, count: parts * tableSize) }
        let rangeStart = UnsafeMutablePointer<Int32>.allocate(capacity: parts + 1)
        defer { rangeStart.deallocate() }
        // The arrays are moved out of the layer, so each is borrowed on its own below.
        var small: [GridEntry] = [], start: [Int32] = [], entries: [GridEntry] = [], slotOf: [Int32] = []
        func exchange() {
            swap(&small, &layer.small); swap(&start, &layer.start)
            swap(&entries, &layer.entries); swap(&slotOf, &layer.slotOf)
        }
        exchange()
        defer { exchange() }
        small.withUnsafeBufferPointer { smBuf in ranges.withUnsafeBufferPointer { rsBuf in
        start.withUnsafeMutableBufferPointer { stBuf in entries.withUnsafeMutableBufferPointer { enBuf in
        slotOf.withUnsafeMutableBufferPointer { slotBuf in counts.withUnsafeMutableBufferPointer { cntBuf in
            let sm = smBuf.baseAddress!, rs = rsBuf.baseAddress!, st = stBuf.baseAddress!, en = enBuf.baseAddress!
            let slots = slotBuf.baseAddress!, slotCount = slotBuf.count, cnt = cntBuf.baseAddress!
            // Count: part j counts the cells of its share of the packed proxies into its own buckets.
            pool.run(blocks: parts) { j in
                let own = cnt + j * tableSize
                own.update(repeating: 0, count: tableSize)
                for k in (count * j / parts)..<(count * (j + 1) / parts) {
                    let r = rs[k]
                    m.forEachBucket((r.x, r.y, r.z, r.w)) { own[$0] += 1 }
                }
            }
            // Sum each range of buckets over all parts, then (serially) where each range starts.
            pool.run(blocks: parts) { t in
                var sum: Int32 = 0
                for j in 0..<parts {
                    let own = cnt + j * tableSize
                    for i in (tableSize * t / parts)..<(tableSize * (t + 1) / parts) { sum &+= own[i] }
                }
                rangeStart[t + 1] = sum
            }
            rangeStart[0] = 0
            for t in 0..<parts { rangeStart[t + 1] &+= rangeStart[t] }
            // Counts become places: in each bucket part 0's proxies first, then part 1's…
            pool.run(blocks: parts) { t in
                var next = rangeStart[t]
                for i in (tableSize * t / parts)..<(tableSize * (t + 1) / parts) {
                    st[i] = next
                    for j in 0..<parts {
                        let c = cnt[j * tableSize + i]
                        cnt[j * tableSize + i] = next
                        next &+= c
                    }
                }
            }
            st[tableSize] = Int32(total)
            // Fill: each part writes its proxies forwards, so each bucket lists them in proxy order.
            pool.run(blocks: parts) { j in
                let own = cnt + j * tableSize
                for k in (count * j / parts)..<(count * (j + 1) / parts) {
                    let r = rs[k], e = sm[k]
                    if Int(e.proxy) < slotCount { slots[Int(e.proxy)] = Int32(k) }
                    m.forEachBucket((r.x, r.y, r.z, r.w)) { b in
                        en[Int(own[b])] = e
                        own[b] += 1
                    }
                }
            }
        } } } } } }
    }

    /// The table for `count` small proxies covering `total` cells within the block of cells from
    /// `low` to `high`: at least twice `total` buckets, laid out by rows when the block fits.
    static func layout(count: Int, total: Int, low: (x: Int32, y: Int32), high: (x: Int32, y: Int32)) -> BucketLayout {
        var tableSize = 64
        while tableSize < total * 2 { tableSize <<= 1 }
        guard count > 0 else { return BucketLayout(mask: tableSize - 1) }
        var rowShift = 0
        let width = Int(high.x) - Int(low.x) + 1, height = Int(high.y) - Int(low.y) + 1
        while (1 << rowShift) < width && rowShift < 40 { rowShift += 1 }
        // Rows only while the occupied block (rows padded to a power of two) fits twice the table;
        // a block smaller than the table shrinks it, as the buckets past the block would stay empty
        // (less to clear and sum on every rebuild).
        guard rowShift < 40 && height <= (2 * tableSize) >> rowShift else { return BucketLayout(mask: tableSize - 1) }
        let block = height << rowShift
        while tableSize > 64 && tableSize >= 2 * block { tableSize >>= 1 }
        return BucketLayout(originX: Int(low.x), originY: Int(low.y), rowShift: rowShift, mask: tableSize - 1, hashed: false)
    }

    /// The number of proxies in the static layer (in cells or large).
    var staticProxyCount: Int { statics.smallCount + statics.large.count }

    /// Brings the static layer up to date: rebuilt from `all()` (every static proxy) when dirty,
    /// else the shapes in `changes` (made, destroyed or changed since; repeats allowed) taken out
    /// and put back in place, each where `isMember` says it belongs now. A change costs the cells
    /// of its shape, not the layer's size: an app replacing one boundary per frame among 100 000
    /// paid a rebuild of all of them per frame. The layer is rebuilt instead when the changes are
    /// many, and after as many changes as it holds proxies or when its table fills (so a rebuild
    /// costs O(1) per change, amortised, and the cells stay laid out for where the shapes are).
    ///
    /// The order of proxies within a bucket then depends on the history of changes; nothing
    /// depends on it: static entries never count toward the crowding limit, so every query of
    /// this layer reads its buckets whole, and the pair search sorts what it finds.
    mutating func updateStatic(changes: inout [Int32], shapes: UnsafePointer<Shape>, shapeCount: Int, bodies: UnsafePointer<Body>,
                               isMember: (Int32) -> Bool, all: () -> [Int32]) {
        defer { changes.removeAll(keepingCapacity: true) }
        if !staticDirty && !changes.isEmpty {
            if changes.count > staticProxyCount / 4 + 64 {
                staticDirty = true
            } else {
                var layer = GridLayer()
                swap(&layer, &statics)   // owned uniquely while it changes
                if layer.slotOf.count < shapeCount { layer.slotOf.append(contentsOf: repeatElement(-1, count: shapeCount - layer.slotOf.count)) }
                changes.sort()
                var last: Int32 = -1
                for p in changes where p != last && p >= 0 && Int(p) < shapeCount {
                    last = p
                    removeStatic(p, from: &layer)
                    if isMember(p) { insertStatic(p, into: &layer, shapes: shapes, bodies: bodies) }
                }
                if layer.changes > staticProxyCountOf(layer) + 64 || layer.used > 4 * layer.live + 4096 {
                    staticDirty = true
                }
                swap(&layer, &statics)
            }
        }
        guard staticDirty else { return }
        var layer = GridLayer(), ranges: [SIMD4<Int32>] = []
        swap(&ranges, &cellRanges)
        swap(&layer, &statics)
        build(all(), shapes: shapes, shapeCount: shapeCount, bodies: bodies, conservative: true, into: &layer, ranges: &ranges)
        swap(&layer, &statics)
        swap(&ranges, &cellRanges)
        staticDirty = false
    }

    private func staticProxyCountOf(_ layer: GridLayer) -> Int { layer.smallCount + layer.large.count }

    /// Takes proxy `p` out of the static layer (nothing when it is not there): out of the buckets
    /// of the cells its entry was filed in, and out of `small` or `large` by moving the last one
    /// into its place.
    private func removeStatic(_ p: Int32, from layer: inout GridLayer) {
        let slot = Int(layer.slotOf[Int(p)])
        if slot == -1 { return }
        layer.slotOf[Int(p)] = -1
        layer.changes += 1
        if slot <= -2 {
            let i = -2 - slot
            let moved = layer.large.removeLast()
            if i < layer.large.count { layer.large[i] = moved; layer.slotOf[Int(moved.proxy)] = Int32(-2 - i) }
            return
        }
        let old = layer.small[slot]
        // the cells it was filed in: its box then, at this cell size (a new cell size rebuilds)
        let r = UniformGrid.cellRange(old.box, invCellSize)
        let layout = layer.layout    // a copy: the walk below writes `layer`
        layout.forEachBucket(r) { b in
            // one entry per cell: a bucket shared by two of its cells holds it twice
            let first = Int(layer.start[b]), last = Int(layer.end[b]) - 1
            var k = first
            while k <= last && layer.entries[k].proxy != p { k += 1 }
            if k <= last {
                layer.entries[k] = layer.entries[last]
                layer.end[b] = Int32(last)
                layer.live -= 1
            }
        }
        let lastSlot = layer.smallCount - 1
        if slot != lastSlot {
            layer.small[slot] = layer.small[lastSlot]
            layer.slotOf[Int(layer.small[slot].proxy)] = Int32(slot)
        }
        layer.smallCount = lastSlot
    }

    /// Puts shape `p` into the static layer: in `large`, or in `small` and the bucket of each of
    /// its cells. A full bucket moves to the end of `entries` with twice the room.
    private func insertStatic(_ p: Int32, into layer: inout GridLayer, shapes: UnsafePointer<Shape>, bodies: UnsafePointer<Body>) {
        var e = GridEntry(p, shapes: shapes, bodies: bodies, conservative: true)
        let r = UniformGrid.cellRange(e.box, invCellSize)
        layer.changes += 1
        if isLarge(r) {
            layer.slotOf[Int(p)] = Int32(-2 - layer.large.count)
            layer.large.append(e)
            return
        }
        e.lowCellX = UInt8(truncatingIfNeeded: r.x0)
        e.lowCellY = UInt8(truncatingIfNeeded: r.y0)
        if layer.small.count <= layer.smallCount { layer.small.append(e) } else { layer.small[layer.smallCount] = e }
        layer.slotOf[Int(p)] = Int32(layer.smallCount)
        layer.smallCount += 1
        let layout = layer.layout    // a copy: the walk below writes `layer`
        layout.forEachBucket(r) { b in
            if layer.end[b] == layer.limit[b] {
                let first = Int(layer.start[b]), count = Int(layer.end[b]) - first
                let room = max(4, 2 * count)
                let to = layer.used
                if layer.entries.count < to + room {
                    layer.entries.append(contentsOf: repeatElement(GridEntry.unused, count: to + room - layer.entries.count))
                }
                for k in 0..<count { layer.entries[to + k] = layer.entries[first + k] }
                layer.start[b] = Int32(to)
                layer.end[b] = Int32(to + count)
                layer.limit[b] = Int32(to + room)
                layer.used = to + room
            }
            layer.entries[Int(layer.end[b])] = e
            layer.end[b] += 1
            layer.live += 1
        }
    }

    /// Brings the movable layer up to date before a pair search by the `moved` proxies: in place
    /// when it can (see `refresh`), else by a rebuild from all movable `proxies`. Either way every
    /// entry then holds its proxy's fat box and flags as they are now, so the search finds the same
    /// pairs.
    /// A rebuild runs on `pool`'s threads when this step runs on several and the proxies are many
    /// (`buildInParallel`), with the same result.
    mutating func updateMovable(_ proxies: [Int32], moved: [Int32], shapes: UnsafePointer<Shape>, shapeCount: Int,
                                bodies: UnsafePointer<Body>, pool: WorkerPool? = nil) {
        var layer = GridLayer()
        swap(&layer, &movable)   // owned uniquely while it changes, so its arrays mutate in place
        defer { swap(&layer, &movable); flagged = moved }
        // Past an eighth of the proxies a rebuild costs less than walking each one's cells twice.
        if !movableDirty && moved.count + flagged.count <= layer.smallCount / 8 {
            // last update's flags off first, then this one's on (a proxy in both ends up flagged)
            var inPlace = true
            for p in flagged where !refresh(p, in: &layer, shapes: shapes, shapeCount: shapeCount, bodies: bodies) { inPlace = false; break }
            if inPlace {
                for p in moved where !refresh(p, in: &layer, shapes: shapes, shapeCount: shapeCount, bodies: bodies) { inPlace = false; break }
            }
            if inPlace { inPlaceUpdates += 1; return }
        }
        var ranges: [SIMD4<Int32>] = []
        swap(&ranges, &cellRanges)
        // Not in a step the caller runs alone (the pool judged it faster, say under load): the
        // parallel form's per-part counts and extra passes would then only cost.
        if let pool, pool.runsInParallel, proxies.count >= UniformGrid.parallelBuildMinimum {
            var counts: [Int32] = []
            swap(&counts, &partCounts)
            buildInParallel(
                proxies, shapes: shapes, shapeCount: shapeCount, bodies: bodies, pool: pool, into: &layer,
                ranges: &ranges, counts: &counts)
            swap(&counts, &partCounts)
        } else {
            build(proxies, shapes: shapes, shapeCount: shapeCount, bodies: bodies, conservative: false, into: &layer, ranges: &ranges)
        }
        swap(&ranges, &cellRanges)
        movableDirty = false
    }

    /// How many proxies may wait in a layer's `extra` list before the next update rebuilds: each
    /// search tests all of them.
    static let extraLimit = 64

    /// Rewrites proxy `p`'s movable entries from its shape: in its cells when its fat box still
    /// covers the same ones, else vacating them and keeping the entry in `extra`. False when only a
    /// rebuild will do (a shape the layer does not hold in cells, a box grown large, `extra` full);
    /// what was already written is then rebuilt anyway.
    private mutating func refresh(_ p: Int32, in layer: inout GridLayer, shapes: UnsafePointer<Shape>, shapeCount: Int,
                                  bodies: UnsafePointer<Body>) -> Bool {
        guard p >= 0, Int(p) < shapeCount, Int(p) < layer.slotOf.count, shapes[Int(p)].isAlive, !shapes[Int(p)].isStaticProxy else { return false }
        let slot = Int(layer.slotOf[Int(p)])
        guard slot >= 0 else { return false }
        var e = GridEntry(p, shapes: shapes, bodies: bodies, conservative: false)
        let r = UniformGrid.cellRange(e.box, invCellSize)
        guard !isLarge(r) else { return false }
        e.lowCellX = UInt8(truncatingIfNeeded: r.x0)
        e.lowCellY = UInt8(truncatingIfNeeded: r.y0)
        let old = layer.small[slot]
        guard old.proxy == p else {
            // already in `extra`: rewrite it there
            guard let i = layer.extra.firstIndex(where: { $0.proxy == p }) else { return false }
            layer.extra[i] = e
            return true
        }
        let o = UniformGrid.cellRange(old.box, invCellSize)
        if o == r {
            write(e, over: p, cells: o, in: &layer)
            layer.small[slot] = e
            return true
        }
        guard layer.extra.count < UniformGrid.extraLimit else { return false }
        write(.vacated, over: p, cells: o, in: &layer)
        layer.small[slot] = .vacated
        layer.extra.append(e)
        relocations += 1
        return true
    }

    /// Overwrites proxy `p`'s entries in the buckets of `cells` with `e`.
    private func write(_ e: GridEntry, over p: Int32, cells r: (x0: Int32, y0: Int32, x1: Int32, y1: Int32), in layer: inout GridLayer) {
        let m = layer.layout
        layer.start.withUnsafeBufferPointer { st in
            layer.entries.withUnsafeMutableBufferPointer { en in
                var iy = r.y0
                while iy <= r.y1 {
                    let row = m.row(iy)
                    var ix = r.x0
                    while ix <= r.x1 {
                        let b = m.bucket(row: row, ix)
                        for k in Int(st[b])..<Int(st[b + 1]) where en[k].proxy == p { en[k] = e }
                        ix += 1
                    }
                    iy += 1
                }
            }
        }
    }

    /// Runs `body` with the grid read through raw buffers, so its queries retain nothing (passing a
    /// layer by value retains its four arrays, per query).
    @inline(__always)
    func withQuery<R>(_ body: (GridQuery) throws -> R) rethrows -> R {
        try movable.withView { m in
            try statics.withView { s in try body(GridQuery(invCellSize: invCellSize, movable: m, statics: s)) }
        }
    }
}

extension GridLayer {
    @inline(__always)
    func withView<R>(_ body: (LayerView) throws -> R) rethrows -> R {
        try start.withUnsafeBufferPointer { st in
            try entries.withUnsafeBufferPointer { en in
                try large.withUnsafeBufferPointer { lg in
                    try small.withUnsafeBufferPointer { sm in
                        try extra.withUnsafeBufferPointer { ex in
                            try end.withUnsafeBufferPointer { ed in
                                // a packed layer's bucket b ends where b + 1 starts
                                let ends = ed.isEmpty ? st.baseAddress! + 1 : ed.baseAddress!
                                return try body(LayerView(start: st, end: ends, entries: en, large: lg,
                                                          small: UnsafeBufferPointer(rebasing: sm[..<smallCount]), extra: ex, layout: layout))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A grid layer's arrays as raw buffers (valid only inside `UniformGrid.withQuery`).
struct LayerView {
    let start: UnsafeBufferPointer<Int32>
    /// Where each bucket ends (`start` + 1 for a packed layer).
    let end: UnsafePointer<Int32>
    let entries: UnsafeBufferPointer<GridEntry>
    let large: UnsafeBufferPointer<GridEntry>
    let small: UnsafeBufferPointer<GridEntry>
    let extra: UnsafeBufferPointer<GridEntry>
    let layout: BucketLayout
}

/// The grid's queries, over raw buffers (valid only inside `UniformGrid.withQuery`).
struct GridQuery {
    let invCellSize: Float
    let movable: LayerView
    let statics: LayerView

    /// A test's outcome as 0 or 1, to combine tests without a branch each.
    @inline(__always) private func bit(_ b: Bool) -> UInt8 { b ? 1 : 0 }

    /// The box of the entry at `e` as (lower x, lower y, upper x, upper y) in one load, read in
    /// place: a whole entry copied to the stack (27 bytes, as two overlapping 16-byte stores) and
    /// its box read back spanned both stores, which the CPU cannot forward (a fifth of a query).
    @inline(__always)
    static func box(at e: UnsafePointer<GridEntry>) -> SIMD4<Float> {
        UnsafeRawPointer(e).loadUnaligned(fromByteOffset: GridEntry.boxOffset, as: SIMD4<Float>.self)
    }

    /// The query box `q` as `overlaps` takes it: (upper x, upper y, −lower x, −lower y).
    @inline(__always)
    static func overlapKey(_ q: AABB) -> SIMD4<Float> { SIMD4(q.upper.x, q.upper.y, -q.lower.x, -q.lower.y) }

    /// Whether box `b` (`box(at:)`) overlaps the query box whose `overlapKey` is `key`: the four
    /// comparisons of `AABB.overlaps` in one vector compare, with the sides of the lower corners
    /// negated so that all four read "greater than" (exact, and NaN still counts as overlapping).
    @inline(__always)
    static func overlaps(_ b: SIMD4<Float>, key: SIMD4<Float>) -> Bool {
        !any(b * SIMD4(1, 1, -1, -1) .> key)
    }

    /// A bucket holding more entries than this is read from a point that depends on the querying
    /// proxy, round to where it started (see `query`).
    static let crowdedBucket = 64

    /// Calls `report` for every proxy of a layer whose fat box overlaps `box` (the querying proxy
    /// `exclude` left out): once each, by the lower-corner rule, except that cells sharing a bucket
    /// may report a proxy twice. A vacated entry has no proxy (−1) and is reported only to a box
    /// reaching infinity on every side; `report` skips it.
    ///
    /// A crowded bucket (more than `crowdedBucket` entries: a heap on one spot) is where reading
    /// every entry would cost n² per step. There the query counts the overlapping entries of
    /// dynamic bodies with a side of at least `crowdHalf` (the pair search's crowding candidates,
    /// `World.crowdLimit`) and stops after `scanLimit` of them, returning true; and it reads such a
    /// bucket from an entry chosen by `exclude`, round to where it started, so that stopped
    /// queries sample their own parts of the heap. A whole read finds the same pairs in any order.
    /// Other buckets hold at most `crowdedBucket` entries each, and a query reads at most
    /// `largeCellLimit` cells: they are read whole, as before.
    @inline(__always)
    @discardableResult
    func query(_ box: AABB, exclude: Int32, isStatic: Bool, crowdHalf: Float = .infinity, scanLimit: Int32 = .max,
               _ report: (GridEntry) -> Void) -> Bool {
        let layer = isStatic ? statics : movable
        let key = GridQuery.overlapKey(box)
        // every query reads these lists whole (a drum's 40 large walls, for each of 8 000 boxes)
        @inline(__always) func readWhole(_ list: UnsafeBufferPointer<GridEntry>) {
            guard var e = list.baseAddress else { return }
            for _ in 0..<list.count {
                let hit = GridQuery.overlaps(GridQuery.box(at: e), key: key) && e.pointee.proxy != exclude
                if hit { report(e.pointee) }
                e += 1
            }
        }
        readWhole(layer.large)
        readWhole(layer.extra)
        if layer.entries.isEmpty { return false }
        let r = UniformGrid.cellRange(box, invCellSize)
        if UniformGrid.cellCount(r) > layer.small.count {
            // A huge box (up to 10⁶ pt, ~10⁹ cells): cheaper to test every small proxy than to walk the cells.
            for e in layer.small where e.proxy != exclude && e.box.overlaps(box) { report(e) }
            return false
        }
        var crowding: Int32 = 0
        let st = layer.start, ed = layer.end, en = layer.entries.baseAddress!, layout = layer.layout
        var iy = r.y0
        while iy <= r.y1 {
            // Report a pair only from the cell holding the lower corner of the two boxes' overlap.
            // That cell is (max(other's lowest cell, the query's lowest cell)) on each axis, as cells
            // grow with coordinates: so in the query's first row or column any entry qualifies on
            // that axis, and elsewhere only one whose own lowest cell is this one.
            let anyY = bit(iy == r.y0), lowY = UInt8(truncatingIfNeeded: iy)
            let row = layout.row(iy)
            var ix = r.x0
            while ix <= r.x1 {
                let anyX = bit(ix == r.x0), lowX = UInt8(truncatingIfNeeded: ix)
                let b = layout.bucket(row: row, ix)
                var k = Int(st[b])
                let end = Int(ed[b])
                if end - k > GridQuery.crowdedBucket {
                    // a heap: from an entry chosen by the querying proxy, round to it, counting the
                    // crowding candidates (see above)
                    let count = end - k
                    let first = k + Int((UInt32(bitPattern: exclude) &* 2_654_435_761) % UInt32(count))
                    for j in 0..<count {
                        let e = en + (first + j < end ? first + j : first + j - count)
                        let b = GridQuery.box(at: e)
                        let inCell = (anyX | bit(e.pointee.lowCellX == lowX)) & (anyY | bit(e.pointee.lowCellY == lowY))
                        if bit(GridQuery.overlaps(b, key: key)) & bit(e.pointee.proxy != exclude) & inCell != 0 {
                            let side = b.highHalf - b.lowHalf
                            if e.pointee.flags.contains(.dynamicBody) && (side.x >= crowdHalf || side.y >= crowdHalf) {
                                crowding += 1
                                if crowding > scanLimit { return true }
                            }
                            report(e.pointee)
                        }
                    }
                    ix += 1
                    continue
                }
                while k < end {
                    let e = en + k
                    k += 1
                    // One branch per entry, on all the tests at once: whether an entry overlaps is
                    // unpredictable, and a branch per test mispredicted that often.
                    // An entry from another cell sharing this bucket can pass too: then the pair is
                    // reported twice, and the caller's sort removes the duplicate.
                    let inCell = (anyX | bit(e.pointee.lowCellX == lowX)) & (anyY | bit(e.pointee.lowCellY == lowY))
                    let overlaps = bit(GridQuery.overlaps(GridQuery.box(at: e), key: key))
                    let hit = overlaps & bit(e.pointee.proxy != exclude) & inCell
                    if hit != 0 { report(e.pointee) }
                }
                ix += 1
            }
            iy += 1
        }
        return false
    }
}
