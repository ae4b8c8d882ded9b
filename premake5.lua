-- contact.h build: premake5 API, runnable by Debian's premake4 4.3 through the shim below.
--
--   premake4 --file=premake5.lua test        build and run every test configuration
--   premake4 --file=premake5.lua bench       build optimised and run the benchmarks
--   premake4 --file=premake5.lua amalgamate  write build/contact.h (one self-contained file)
--   premake4 --file=premake5.lua gmake       just the makefiles, under build/
-- (premake5 takes the same actions; its makefile generator is gmake2 or gmake.)

---------------------------------------------------------------------------------------------
-- Shim: premake4 4.3 lacks workspace/filter/symbols/optimize, returns a number from
-- os.execute, has no _PREMAKE_COMMAND, and strips release binaries unless Symbols is set.
---------------------------------------------------------------------------------------------
local PM4 = tostring(_PREMAKE_VERSION or ""):sub(1, 1) == "4"
if PM4 then
    workspace = solution
    function filter(f)
        if type(f) == "table" and #f == 0 then return configuration({}) end
        if type(f) == "table" then f = f[1] end
        local cfg = f:match("^configurations:(.+)$")
        configuration(cfg or f)
    end
    function symbols(v) if v == "On" then flags { "Symbols" } end end
    function optimize(v) if v == "Speed" or v == "On" then flags { "OptimizeSpeed" } end end
end
local PREMAKE = PM4 and "premake4" or (_PREMAKE_COMMAND or "premake5")
local GMAKE = (not PM4 and premake.action.get("gmake2")) and "gmake2" or "gmake"

-- true when the command exited 0, under both Lua 5.1 (number) and 5.3 (boolean, how, code)
local function run(cmd)
    print("$ " .. cmd)
    io.stdout:flush()
    local a, _, c = os.execute(cmd)
    if type(a) == "number" then return a == 0 end
    return a == true and (c == nil or c == 0)
end

local ROOT = path.getabsolute(".")
local SCRIPT = _SCRIPT or path.join(ROOT, "premake5.lua") -- _SCRIPT is nil inside actions in 4.3
local function have(p) return os.isfile(p) end
local PEERS = {
    qhull  = have("/usr/include/libqhull_r/libqhull_r.h"),
    ccd    = have("/usr/include/ccd/ccd.h"),
    bullet = have("/usr/include/bullet/btBulletCollisionCommon.h"),
    cgal   = have("/usr/include/CGAL/box_intersection_d.h"),
}

---------------------------------------------------------------------------------------------
-- Projects
---------------------------------------------------------------------------------------------
local CONFIGS = { "double", "float", "sanitize", "release", "debug" }

workspace "contact"
    configurations(CONFIGS)
    location "build"
    language "C"
    includedirs { ".", "tests/support", "bench" }
    buildoptions { "-Wall", "-Wextra", "-Werror", "-fopenmp" }
    linkoptions { "-fopenmp" }
    symbols "On"
    filter "configurations:double"
        optimize "Speed"
    filter "configurations:float"
        optimize "Speed"
        defines { "CT_REAL=float" }
    filter "configurations:sanitize"
        buildoptions { "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                       "-fno-omit-frame-pointer" }
        linkoptions { "-fsanitize=address,undefined" }
    filter "configurations:release"
        optimize "Speed"
    -- CT_ASSERT on: the structural invariants the algorithms rely on are checked (never user data)
    filter "configurations:debug"
        optimize "Speed"
        defines { "CONTACT_DEBUG" }
    filter {}

local function dirs(name)
    location "build"
    for _, cfg in ipairs(CONFIGS) do
        filter("configurations:" .. cfg)
            targetdir("build/" .. cfg)
            objdir("build/obj/" .. cfg .. "/" .. name)
    end
    filter {}
end

local function peerlinks(list)
    for _, p in ipairs(list) do
        if PEERS[p] then
            defines { "CT_HAVE_" .. p:upper() }
            if p == "qhull" then links { "qhull_r" } end
            if p == "ccd" then links { "ccd" } end
            if p == "bullet" then
                includedirs { "/usr/include/bullet" }
                links { "BulletCollision", "LinearMath" }
            end
            if p == "cgal" then links { "gmp", "mpfr" } end
        end
    end
end

-- The Criterion suites: C test files linked with the implementation compiled as C (tests)
-- or as C++ (tests_cpp), so the header is exercised by both compilers.
local function testproject(name, lang, impl)
    project(name)
        kind "ConsoleApp"
        language(lang)
        dirs(name)
        files { "tests/test_*.c", "tests/support/testutil.c", "bench/workload.c", "bench/harness.c", impl }
        peerlinks { "qhull", "ccd" }
        links { "criterion", "m", "pthread" }
end
testproject("tests", "C", "tests/support/impl.c")
testproject("tests_cpp", "C++", "tests/support/impl.cpp")

-- One benchmark executable per bench/bench_*.cpp; each links the C implementation.
local BENCHES = {}
for _, f in ipairs(os.matchfiles("bench/bench_*.cpp")) do
    local name = path.getbasename(f)
    table.insert(BENCHES, name)
    project(name)
        kind "ConsoleApp"
        language "C++"
        dirs(name)
        files { f, "bench/harness.c", "bench/workload.c", "bench/impl.c" }
        peerlinks { "qhull", "ccd", "bullet", "cgal" }
        links { "m", "pthread" }
end

---------------------------------------------------------------------------------------------
-- Actions
---------------------------------------------------------------------------------------------
local function generate()
    return run(PREMAKE .. ' --file="' .. SCRIPT .. '" ' .. GMAKE)
end

local function jobs()
    return os.getenv("CT_JOBS") or "2"
end

-- The single-file header: contact.h with each #include "detail/x.h" replaced by the file.
local function amalgamate()
    local function slurp(p)
        local f = io.open(p, "r")
        if not f then return nil end
        local s = f:read("*a")
        f:close()
        return s
    end
    local src = slurp(ROOT .. "/contact.h")
    if not src then print("cannot read contact.h") return false end
    -- the FILES paragraph of contact.h tells the reader the implementation is in detail/:
    -- in the single file it is not
    local FILES = '     "One header" means contact.h together with the detail/ directory next to it, which holds\n' ..
                  '     the implementation (one algorithm per file): copy both. For a single self-contained\n' ..
                  '     file run `premake4 --file=premake5.lua amalgamate` (writes build/contact.h).\n'
    local i, j = src:find(FILES, 1, true)
    if not i then print("amalgamate: the FILES paragraph of contact.h changed; update premake5.lua") return false end
    src = src:sub(1, i - 1) ..
          '     This is the single-file build of contact.h (made by its amalgamate action): the\n' ..
          '     implementation follows in this file, after the API. Nothing else is needed.\n' ..
          src:sub(j + 1)
    local missing = false
    src = src:gsub('#include "detail/([%w_]+%.h)"', function(n)
        local body = slurp(ROOT .. "/detail/" .. n)
        if not body then missing = true return "" end
        return "/* ---- detail/" .. n .. " ---- */\n" .. body
    end)
    if missing then print("amalgamate: a detail file is missing") return false end
    os.mkdir(ROOT .. "/build")
    local f = io.open(ROOT .. "/build/contact.h", "w")
    f:write(src)
    f:close()
    print("wrote build/contact.h")
    return true
end

newaction {
    trigger = "amalgamate",
    description = "Write build/contact.h, one self-contained header",
    execute = function() if not amalgamate() then os.exit(1) end end,
}

-- Compile-only checks of the header: strict C99 and C++ with gcc and clang, static mode,
-- no writable global/static data, and the amalgamated header.
local function compile_checks(failed)
    -- -Wdouble-promotion -Wconversion: a float build computes nothing in double by accident
    local W = "-Wall -Wextra -Werror -pedantic -Wdouble-promotion -Wconversion -fopenmp -I. -c -o /dev/null"
    local checks = {}
    for _, cc in ipairs({ "gcc", "clang" }) do
        if run("command -v " .. cc .. " >/dev/null") then
            local cxx = cc == "gcc" and "g++" or "clang++"
            for _, real in ipairs({ "", " -DCT_REAL=float" }) do
                table.insert(checks, cc .. " -std=c99 " .. W .. real .. " tests/compile/api_c.c")
                table.insert(checks, cxx .. " -std=c++11 " .. W .. real .. " tests/compile/api_cpp.cpp")
            end
            table.insert(checks, cc .. " -std=c99 " .. W .. " tests/compile/static_mode.c")
            table.insert(checks, cc .. " -std=c99 " .. W .. " -DCT_USE_AMALGAMATED -Ibuild tests/compile/api_c.c")
        end
    end
    for _, c in ipairs(checks) do
        if not run(c) then table.insert(failed, "compile: " .. c) end
    end
    if not run("sh tests/compile/no_statics.sh") then table.insert(failed, "no writable statics") end
    -- libFuzzer harnesses, deterministic (fixed seed, each harness's fuzz-ci-runs count, about
    -- 2.5 min in all), double precision; see tests/fuzz/run.sh for longer and float runs
    if not run("CT_FUZZ_REALS=double CT_FUZZ_RUNS=${CT_FUZZ_RUNS:-ci} sh tests/fuzz/run.sh") then
        table.insert(failed, "fuzz")
    end
end

newaction {
    trigger = "test",
    description = "Build and run every test configuration (exits non-zero on failure)",
    execute = function()
        local failed = {}
        if not amalgamate() then table.insert(failed, "amalgamate") end
        if not generate() then print("premake generation failed") os.exit(1) end
        compile_checks(failed)
        -- every entry point from 8 pthreads at once under ThreadSanitizer (tests/tsan/run.sh)
        -- (each run's stdout is kept in a .log for tests/check_readme.sh)
        local function logged(cmd, log)
            return run("sh -c '" .. cmd .. " > " .. log .. " 2>&1; s=$?; cat " .. log .. "; exit $s'")
        end
        os.mkdir(ROOT .. "/build/tsan")
        if not logged("sh tests/tsan/run.sh", "build/tsan/tsan.log") then table.insert(failed, "tsan") end
        -- Solfec-1.0's cvi regression inputs (not redistributed: see tests/test_polar.c), used
        -- when CT_SOLFEC_CVI names them or they sit in shared/data/solfec-cvi next to the checkout
        local solfec = ""
        local cvi = os.getenv("CT_SOLFEC_CVI") or path.getabsolute(ROOT .. "/../shared/data/solfec-cvi")
        if os.isfile(cvi .. "/README.md") then solfec = "CT_SOLFEC_CVI=" .. cvi .. " " end
        local runs = {
            { "double", "tests" }, { "float", "tests" },
            { "double", "tests_cpp" }, { "float", "tests_cpp" },
            { "sanitize", "tests" }, { "debug", "tests" },
        }
        for _, r in ipairs(runs) do
            local cfg, prj = r[1], r[2]
            print("\n==== " .. prj .. " [" .. cfg .. "] ====")
            if not run("make -C build -j" .. jobs() .. " config=" .. cfg .. " " .. prj) then
                table.insert(failed, "build " .. prj .. " [" .. cfg .. "]")
            else
                local env = "CT_TEST_CONFIG=" .. cfg .. " " .. solfec
                if cfg == "sanitize" then
                    env = env .. "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 "
                end
                if not logged(env .. "build/" .. cfg .. "/" .. prj .. " --jobs " .. jobs(),
                              "build/" .. cfg .. "/" .. prj .. ".log") then
                    table.insert(failed, "run " .. prj .. " [" .. cfg .. "]")
                end
            end
        end
        -- the figures README.md quotes from the tests are the ones they count
        if not run("sh tests/check_readme.sh build/double/tests.log build/float/tests.log build/tsan/tsan.log") then
            table.insert(failed, "README figures")
        end
        print("\n==== summary ====")
        if #failed > 0 then
            for _, f in ipairs(failed) do print("FAILED: " .. f) end
            os.exit(1)
        end
        print("all test configurations passed")
    end,
}

newaction {
    trigger = "bench",
    description = "Build optimised and run the benchmarks (results in build/bench/)",
    execute = function()
        if not generate() then os.exit(1) end
        os.mkdir(ROOT .. "/build/bench")
        os.remove(ROOT .. "/build/bench/results.md")
        local ok = true
        for _, name in ipairs(BENCHES) do
            if not run("make -C build -j" .. jobs() .. " config=release " .. name) then ok = false
            elseif not run("build/release/" .. name) then ok = false end
        end
        for p, present in pairs(PEERS) do
            if not present then print("peer " .. p .. " not installed: its rows are skipped") end
        end
        if not ok then os.exit(1) end
    end,
}
