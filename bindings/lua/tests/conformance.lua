-- conformance.lua: runs the cross-runtime conformance vectors (Tests/Conformance/*.json, format in
-- Tests/Conformance/README.md) through the LuaJIT binding, as the Swift, C and Python runners do.
-- For each vector: a form from the vector's spec (its exact text, handed to fw_form_load_spec by
-- formwell.from_spec) with the starts_with_plus validator defined in Lua; then every step's event
-- and, after it, every field's state (one form:state call: phase, validity, message, display,
-- display_message, touched, failing_rule when the vector gives it), is_valid and first_invalid.
-- Each vector's `records` are checked twice: all at once through form:check_many (the batch path),
-- and one by one as a submit of a fresh form (set every value given, then validate).
--
-- Usage: luajit bindings/lua/tests/conformance.lua Tests/Conformance/*.json
-- Prints one line per mismatch and a summary; exits 1 on any failure, 2 on a usage error.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path

local formwell = require("formwell")
local json = require("formwell_json")

local vectors, steps, records, checks, failures = 0, 0, 0, 0, 0

local function failure(file, step, field, what, expected, got)
  failures = failures + 1
  local where = step and ("step " .. step .. ": ") or ""
  print(("%s: %s%s: %s: expected %s, got %s"):format(file, where, field, what, expected, got))
end

local function show(value)
  if value == nil or value == json.null then return "null" end
  if type(value) == "string" then return ("%q"):format(value) end
  return tostring(value)
end

local function check(file, step, field, what, expected, got)
  checks = checks + 1
  if expected ~= got then failure(file, step, field, what, show(expected), show(got)) end
end

-- seed 02's example, as every runner defines it
local function starts_with_plus(value)
  if value:sub(1, 1) == "+" then return true end
  return "Number must start with '+'"
end

local FIELD_KEYS = { "phase", "validity", "message", "display", "display_message" }

local function check_field(file, index, form, id, want)
  if type(want) ~= "table" then
    return failure(file, index, id, "expectation", "an object", type(want))
  end
  local state = form:state(id) -- one fw_field_snapshot call
  for _, key in ipairs(FIELD_KEYS) do
    if type(want[key]) ~= "string" then
      failure(file, index, id, key, "a string in the vector", "missing or not a string")
    else
      check(file, index, id, key, want[key], state[key])
    end
  end
  if type(want.touched) ~= "boolean" then
    failure(file, index, id, "touched", "a boolean in the vector", "missing or not a boolean")
  else
    check(file, index, id, "touched", want.touched, state.touched)
  end
  if want.failing_rule ~= nil then -- optional; the vectors count from 0, Lua from 1
    local expected = want.failing_rule ~= json.null and want.failing_rule + 1 or nil
    check(file, index, id, "failing_rule (1-based)", expected, state.failing_rule)
  end
end

local function run_step(file, index, form, ids, step)
  local event, field, value = step.event, step.field, step.value
  if event == "focus" then form:focus(field)
  elseif event == "blur" then form:blur(field)
  elseif event == "touch" then form:touch(field)
  elseif event == "type" or event == "set_value" then form:set(field, value)
  elseif event == "touch_all" then form:touch_all()
  elseif event == "reset" then form:reset()
  elseif event == "validate" then
    local returned = form:validate()
    if type(step.returns) ~= "boolean" then
      failure(file, index, "(form)", "returns", "a boolean in the vector", "missing or not a boolean")
    else
      check(file, index, "(form)", "validate returns", step.returns, returned)
    end
  else
    return failure(file, index, "-", "event", "a known event", show(event))
  end

  local expect = step.expect
  if type(expect) ~= "table" or type(expect.fields) ~= "table" then
    return failure(file, index, "(form)", "expect.fields", "an object", "missing")
  end
  local known = {}
  for _, id in ipairs(ids) do
    known[id] = true
    if expect.fields[id] == nil then
      failure(file, index, id, "expect.fields", "every field of the form listed", "field missing from the vector")
    else
      check_field(file, index, form, id, expect.fields[id])
    end
  end
  for id in pairs(expect.fields) do
    if not known[id] then failure(file, index, id, "expect.fields", "a field of the form", "unknown field") end
  end
  if type(expect.valid) ~= "boolean" then
    failure(file, index, "(form)", "valid", "a boolean in the vector", "missing or not a boolean")
  else
    check(file, index, "(form)", "valid", expect.valid, form:is_valid())
  end
  local first = expect.first_invalid
  if first ~= json.null and type(first) ~= "string" then
    failure(file, index, "(form)", "first_invalid", "a string or null in the vector", "missing")
  else
    check(file, index, "(form)", "first_invalid", first ~= json.null and first or nil, form:first_invalid())
  end
end

-- Compares one record's errors {id = message} with the vector's.
local function check_errors(file, label, ids, want, got)
  for _, id in ipairs(ids) do
    check(file, nil, label .. ": " .. id, "error", want[id], got[id])
  end
  for id in pairs(want) do
    local known = false
    for _, fid in ipairs(ids) do known = known or fid == id end
    if not known then failure(file, nil, label, "errors", "a field of the form", id) end
  end
end

local function run_records(file, form, spec_text, ids, list)
  local batch = {}
  for r, record in ipairs(list) do
    if type(record.values) ~= "table" or type(record.valid) ~= "boolean" or type(record.errors) ~= "table" then
      failure(file, nil, "record " .. r, "shape", "values, valid and errors", "missing")
      return
    end
    batch[r] = record.values
  end
  -- all at once, on the form the steps left behind (a batch never reads the form's own state)
  local result = form:check_many(batch)
  local invalid = 0
  for r, record in ipairs(list) do
    records = records + 1
    local label = "record " .. r
    check(file, nil, label, "check_many valid", record.valid, result.valid[r])
    check_errors(file, label .. " (check_many)", ids, record.errors, result:errors(r))
    if not result.valid[r] then invalid = invalid + 1 end
  end
  check(file, nil, "(records)", "invalid_count", invalid, result.invalid_count)
  -- one by one: a submit of a fresh form
  for r, record in ipairs(list) do
    local fresh = formwell.from_spec(spec_text)
    for _, id in ipairs(ids) do
      if record.values[id] ~= nil then fresh:set(id, record.values[id]) end
    end
    local label = "record " .. r .. " (submit)"
    check(file, nil, label, "validate", record.valid, fresh:validate())
    local got = {}
    for _, id in ipairs(ids) do
      local state = fresh:state(id)
      if state.validity == "invalid" then got[id] = state.message end
    end
    check_errors(file, label, ids, record.errors, got)
    fresh:free()
  end
end

local function run_vector(file)
  local handle = io.open(file, "rb")
  if not handle then return failure(file, nil, "(vector)", "file", "readable", "unreadable") end
  local text = handle:read("*a")
  handle:close()
  local ok, vector, spans = pcall(json.decode, text)
  if not ok then return failure(file, nil, "(vector)", "JSON", "a readable vector", vector) end
  if type(vector.spec) ~= "table" or type(vector.steps) ~= "table" then
    return failure(file, nil, "(vector)", "shape", '"spec" object and "steps" array', "missing")
  end
  vectors = vectors + 1
  local span = spans[vector.spec]
  local spec_text = text:sub(span[1], span[2])
  local form = formwell.from_spec(spec_text, { validators = { starts_with_plus = starts_with_plus } })
  local ids = form:fields()
  for index, step in ipairs(vector.steps) do
    steps = steps + 1
    local ran, err = pcall(run_step, file, index - 1, form, ids, step)
    if not ran then failure(file, index - 1, step.field or "(form)", step.event or "step", "no error", tostring(err)) end
  end
  if type(vector.records) == "table" then
    local ran, err = pcall(run_records, file, form, spec_text, ids, vector.records)
    if not ran then failure(file, nil, "(records)", "run", "no error", tostring(err)) end
  end
  form:free()
end

if #arg == 0 then
  io.stderr:write("usage: luajit conformance.lua VECTOR.json...\n")
  os.exit(2)
end
for _, file in ipairs(arg) do run_vector(file) end
collectgarbage()
if formwell.live_count() ~= 0 then
  failures = failures + 1
  print(("conformance.lua: %d forms still alive after the run"):format(formwell.live_count()))
end
print(("conformance.lua (LuaJIT, %s): %d vectors, %d steps, %d records (check_many and submits), %d checks, %d failures")
  :format(formwell.version, vectors, steps, records, checks, failures))
os.exit(failures == 0 and 0 or 1)
