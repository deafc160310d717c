-- formwell: the LuaJIT binding of libformwell (through LuaJIT's ffi; no C module to build).
--
--   local formwell = require("formwell")
--   local form = formwell.Form()
--   form:add_field("email", { formwell.required(), formwell.email() }, { label = "Email" })
--   form:focus("email")
--   form:set("email", "ada@")
--   print(form:state("email").message)        --> Invalid email format
--
-- The C declarations are read at load time from the GENERATED include/formwell_ffi.h (never a copy):
-- $FORMWELL_FFI_HEADER, else formwell_ffi.h beside this file, else ../../include/formwell_ffi.h
-- from this file (the repository), else /usr/local/include or /usr/include (`make install`).
-- The library: $FORMWELL_LIBRARY, else ../../.build/release/libformwell.so from this file (the
-- repository's build), else the system loader's libformwell.so.0.
--
-- Indexes are 1-based, as Lua arrays: a field's index, and failing_rule (the position, in the rules
-- given to add_field or listed in the spec, of the rule whose message the field shows).
-- Failures raise a Lua error: a formwell error object (fields status, code, detail, call, offset;
-- tostring gives "FW_ERR_UNKNOWN_FIELD: no field with id 'x'"), or, when a Lua custom validator
-- raised, that validator's own error value. README.md in this folder has the whole contract.

local ffi = require("ffi")
local jit = require("jit")
local bit = require("bit")

local tonumber, tostring, type, error, pcall, setmetatable = tonumber, tostring, type, error, pcall, setmetatable
local find, ffi_string, ffi_new = string.find, ffi.string, ffi.new

local formwell = {}

-- ---- loading ---------------------------------------------------------------------------------

local function module_dir()
  local source = debug.getinfo(1, "S").source
  if source:sub(1, 1) == "@" then return source:sub(2):match("^(.*)[/\\]") or "." end
  return "."
end
local DIR = module_dir()

local function readable(path)
  local file = io.open(path, "rb")
  if file then file:close() end
  return file ~= nil
end

local function read_header()
  local explicit = os.getenv("FORMWELL_FFI_HEADER")
  local candidates = explicit and explicit ~= "" and { explicit }
    or { DIR .. "/formwell_ffi.h", DIR .. "/../../include/formwell_ffi.h",
         "/usr/local/include/formwell_ffi.h", "/usr/include/formwell_ffi.h" }
  for _, path in ipairs(candidates) do
    local file = io.open(path, "rb")
    if file then
      local text = file:read("*a")
      file:close()
      return text, path
    end
  end
  error("formwell: cannot read formwell_ffi.h (tried " .. table.concat(candidates, ", ")
    .. "; set FORMWELL_FFI_HEADER)", 0)
end

local HEADER, HEADER_PATH = read_header()
ffi.cdef(HEADER)

local function load_library()
  local explicit = os.getenv("FORMWELL_LIBRARY")
  if explicit and explicit ~= "" then return ffi.load(explicit), explicit end
  local built = DIR .. "/../../.build/release/libformwell.so"
  if readable(built) then return ffi.load(built), built end
  return ffi.load("libformwell.so.0"), "libformwell.so.0"
end

local lib, LIBRARY_PATH = load_library()
if tonumber(lib.fw_abi_version()) ~= tonumber(lib.FW_ABI_VERSION) then
  error(("formwell: %s has ABI %d but %s declares ABI %d"):format(LIBRARY_PATH,
    tonumber(lib.fw_abi_version()), HEADER_PATH, tonumber(lib.FW_ABI_VERSION)), 0)
end

formwell.lib = lib                 -- the raw ffi namespace (every fw_ function of the header)
formwell.library_path = LIBRARY_PATH
formwell.header_path = HEADER_PATH
formwell.version = ffi_string(lib.fw_version())

-- Enum names, read from the header (so no list here can drift): enums.fw_status[3] = "FW_ERR_UNKNOWN_FIELD".
local enums = {}
for name, body in HEADER:gmatch("typedef enum (fw_[%w_]+) {(.-)}") do
  local names = {}
  for constant, value in body:gmatch("(FW_[%w_]+) = (%d+)") do names[tonumber(value)] = constant end
  enums[name] = names
end

-- Lower-case short names: phase_names[1] = "focused" (from FW_PHASE_FOCUSED).
local function short_names(enum, prefix)
  local names = {}
  for value, constant in pairs(enums[enum]) do names[value] = constant:sub(#prefix + 1):lower() end
  return names
end
local PHASE = short_names("fw_phase", "FW_PHASE_")
local VALIDITY = short_names("fw_validity", "FW_VALIDITY_")
local DISPLAY = short_names("fw_display", "FW_DISPLAY_")
local RULE_KIND = {}
for value, name in pairs(short_names("fw_rule_kind", "FW_RULE_")) do RULE_KIND[name] = value end
formwell.status_names = enums.fw_status

local OK = tonumber(lib.FW_OK)
local ERR_CALLBACK = tonumber(lib.FW_ERR_CALLBACK)
local ERR_TOO_SMALL = tonumber(lib.FW_ERR_BUFFER_TOO_SMALL)
local CELL_OWN_MESSAGE = tonumber(lib.FW_CELL_OWN_MESSAGE)
local VERDICT_VALID, VERDICT_INVALID, VERDICT_ERROR =
  tonumber(lib.FW_VERDICT_VALID), tonumber(lib.FW_VERDICT_INVALID), tonumber(lib.FW_VERDICT_ERROR)

-- ---- errors ----------------------------------------------------------------------------------

local Error = {}
Error.__index = Error
Error.__tostring = function(e)
  return e.status .. ": " .. (e.detail ~= "" and e.detail or e.description)
end
formwell.Error = Error

function formwell.is_error(value)
  return getmetatable(value) == Error
end

local detail_buf = ffi_new("char[1024]")
local length_out = ffi_new("size_t[1]")

-- A custom validator's error, kept for the call that ran it (first one wins).
local pending, has_pending = nil, false

-- Raises the Lua error for status (non-OK) returned by the C function named `call`.
local function raise(status, call)
  status = tonumber(status)
  local value, had = pending, has_pending
  pending, has_pending = nil, false -- a validator's error belongs to this failing call, never a later one
  if status == ERR_CALLBACK and had then error(value, 0) end
  local detail = ""
  if lib.fw_last_error_message(detail_buf, 1024, length_out) == OK then detail = ffi_string(detail_buf) end
  local offset = tonumber(lib.fw_last_error_offset())
  error(setmetatable({
    status = enums.fw_status[status] or ("FW_STATUS_" .. status),
    code = status,
    description = ffi_string(lib.fw_status_string(status)),
    detail = detail,
    call = call,
    offset = offset >= 0 and offset or nil,
  }, Error), 0)
end

local function argument_error(what, level)
  error("formwell: " .. what, (level or 2) + 1)
end

-- A Lua string fit for a C string argument (no NUL byte: C would silently cut it there).
local function cstring(value, what)
  if type(value) ~= "string" then argument_error(what .. " must be a string, not " .. type(value), 3) end
  if find(value, "\0", 1, true) then argument_error(what .. " contains a NUL byte", 3) end
  return value
end

local function optional_cstring(value, what)
  if value == nil then return nil end
  return cstring(value, what)
end

-- ---- custom validators: one shared callback ----------------------------------------------------
--
-- LuaJIT has a fixed number of callback slots (about 900 here, never collected), so every Lua
-- validator goes through ONE ffi callback; the rule's context is a key into `registry`. The form
-- keeps its validators alive (form._validators); the registry is weak, so a collected form takes
-- its validators with it. No destroy function is given: nothing calls into Lua from fw_form_free
-- (a __gc finalizer may run it).

local registry = setmetatable({}, { __mode = "v" })
local next_key = 0
local message_anchor -- keeps the returned message alive until the library has copied it

local function run_validator(context, value, length, out_message)
  local fn = registry[tonumber(ffi.cast("uintptr_t", context))]
  if fn == nil then error("formwell: custom validator is gone", 0) end
  local result = fn(ffi_string(value, length))
  if result == nil or result == true then return VERDICT_VALID end
  if result == false then return VERDICT_INVALID end
  if type(result) == "string" then
    message_anchor = result
    out_message[0] = result
    return VERDICT_INVALID
  end
  error("formwell: a custom validator returned a " .. type(result)
    .. " (expected true/nil for valid, false or a message for invalid)", 0)
end

-- The contract: a callback must return; a Lua error never unwinds through the library. It is caught
-- here, the verdict is FW_VERDICT_ERROR (the call fails with FW_ERR_CALLBACK and changes nothing)
-- and raise() re-raises the error from the call that ran the validator.
local function trampoline(context, value, length, out_message)
  local ok, verdict = pcall(run_validator, context, value, length, out_message)
  if ok then return verdict end
  if not has_pending then pending, has_pending = verdict, true end
  return VERDICT_ERROR
end
local VALIDATE_CALLBACK = ffi.cast("fw_validate_fn", trampoline)

local function register(form, fn)
  next_key = next_key + 1
  registry[next_key] = fn
  form._validators[#form._validators + 1] = fn
  return ffi.cast("void *", next_key)
end

-- ---- rules -----------------------------------------------------------------------------------
-- A rule is a table shaped as in a JSON spec: {rule = "min_length", length = 8, message = "Too short"}.
-- A custom rule takes a Lua function (or the name of one given to define_validator) as `validate`.

function formwell.required(message) return { rule = "required", message = message } end
function formwell.email(message) return { rule = "email", message = message } end
function formwell.phone(message) return { rule = "phone", message = message } end
function formwell.min_length(length, message) return { rule = "min_length", length = length, message = message } end
function formwell.max_length(length, message) return { rule = "max_length", length = length, message = message } end
function formwell.regex(pattern, message) return { rule = "regex", pattern = pattern, message = message } end
function formwell.matches(field, message) return { rule = "matches", field = field, message = message } end
function formwell.custom(validate, message) return { rule = "custom", validate = validate, message = message } end

-- ---- forms -----------------------------------------------------------------------------------

local SNAPSHOT_SIZE = ffi.sizeof("fw_snapshot")
local snapshot_t = ffi.typeof("fw_snapshot")
local form_ptr_t = ffi.typeof("fw_form *[1]")

local Form = {}  -- the methods of every form
local FormMeta = { __index = Form }

local function free_form(ptr) lib.fw_form_free(ptr) end

local function new_form()
  local out = form_ptr_t()
  local status = lib.fw_form_create(out)
  if status ~= OK then raise(status, "fw_form_create") end
  local self = {
    _ptr = ffi.gc(out[0], free_form),
    _validators = {},
    _named = {},
    _initial = {},
    _spec_texts = {},
    _snap = snapshot_t(),
    _buf = ffi_new("char[?]", 256),
    _bufsize = 256,
  }
  self._snap.size = SNAPSHOT_SIZE
  return setmetatable(self, FormMeta)
end

function formwell.Form()
  return new_form()
end

-- From the moment a Lua validator is attached, the form's events run through the JIT-off copies
-- (see "JIT" below).
local function uses_callbacks(self)
  self._callbacks = true
end

local function ptr(self)
  local p = self._ptr
  if p == nil then argument_error("the form is freed", 3) end
  return p
end

-- The snapshot in self._snap as a Lua table (texts copied out of self._buf).
local function snapshot_table(s)
  local rule = s.failing_rule
  return {
    index = tonumber(s.index) + 1,
    phase = PHASE[s.phase],
    validity = VALIDITY[s.validity],
    display = DISPLAY[s.display],
    message = ffi_string(s.message, s.message_length),
    display_message = ffi_string(s.display_message, s.display_message_length),
    value = ffi_string(s.value, s.value_length),
    touched = s.touched,
    limit_exceeded = s.limit_exceeded,
    failing_rule = rule >= 0 and rule + 1 or nil,
  }
end

local function grow(self, size)
  size = tonumber(size)
  local new = 256
  while new < size do new = new * 2 end
  self._buf, self._bufsize = ffi_new("char[?]", new), new
end

-- Snapshots of field `id` (a string) or of the field at index `id` (a number, 1-based); one C call,
-- two only when the texts outgrow the form's buffer.
local function snapshot(self, id)
  local p, s = ptr(self), self._snap
  local status
  if type(id) == "number" then
    status = lib.fw_field_snapshot_at(p, id - 1, s, self._buf, self._bufsize)
  else
    status = lib.fw_field_snapshot(p, cstring(id, "field id"), s, self._buf, self._bufsize)
  end
  if status ~= OK then
    if status ~= ERR_TOO_SMALL then raise(status, "fw_field_snapshot") end
    grow(self, s.text_size)
    return snapshot(self, id)
  end
  return s
end

--- The field's whole state, read in one fw_field_snapshot call: a table {index, phase, validity,
--- message, display, display_message, value, touched, limit_exceeded, failing_rule}.
function Form:state(id)
  return snapshot_table(snapshot(self, id))
end

function Form:get(id)
  local s = snapshot(self, id)
  return ffi_string(s.value, s.value_length)
end

-- Reads a string the library copies out: call(p, buf, size, out_length) wraps the C function;
-- the buffer grows when the text does not fit.
local function read_string(self, name, call)
  local p = ptr(self)
  local status = call(p, self._buf, self._bufsize, length_out)
  if status == ERR_TOO_SMALL then
    grow(self, length_out[0] + 1)
    status = call(p, self._buf, self._bufsize, length_out)
  end
  if status ~= OK then raise(status, name) end
  return ffi_string(self._buf, length_out[0])
end

function Form:count()
  local out = ffi_new("size_t[1]")
  local status = lib.fw_form_field_count(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_field_count") end
  return tonumber(out[0])
end

--- The field ids in registration order.
function Form:fields()
  local ids = {}
  for i = 1, self:count() do
    ids[i] = read_string(self, "fw_form_field_id", function(p, buf, size, out)
      return lib.fw_form_field_id(p, i - 1, buf, size, out)
    end)
  end
  return ids
end

--- The field's 1-based index (for the *_at calls and state(index)).
function Form:index(id)
  local out = ffi_new("size_t[1]")
  local status = lib.fw_form_field_index(ptr(self), cstring(id, "field id"), out)
  if status ~= OK then raise(status, "fw_form_field_index") end
  return tonumber(out[0]) + 1
end

--- Every field's value, as {id = value}.
function Form:values()
  local values = {}
  for i, id in ipairs(self:fields()) do values[id] = self:get(i) end
  return values
end

function Form:is_valid()
  local out = ffi_new("bool[1]")
  local status = lib.fw_form_is_valid(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_is_valid") end
  return out[0]
end

--- The first failing field's id (registration order), or nil.
function Form:first_invalid()
  local id = read_string(self, "fw_form_first_invalid", lib.fw_form_first_invalid)
  if id == "" then return nil end
  return id
end

function Form:export_spec()
  return read_string(self, "fw_form_export_spec", lib.fw_form_export_spec)
end

function Form:set_match_limits(match_limit, depth_limit, heap_limit_kib)
  local status = lib.fw_form_set_match_limits(ptr(self), match_limit, depth_limit, heap_limit_kib)
  if status ~= OK then raise(status, "fw_form_set_match_limits") end
end

function Form:match_limits()
  local out = ffi_new("uint32_t[3]")
  local status = lib.fw_form_match_limits(ptr(self), out, out + 1, out + 2)
  if status ~= OK then raise(status, "fw_form_match_limits") end
  return tonumber(out[0]), tonumber(out[1]), tonumber(out[2])
end

--- The time one match may take, in seconds (fw_form_set_time_limit; 0.005 by default).
function Form:set_time_limit(seconds)
  local micros = math.floor(seconds * 1e6 + 0.5)
  local status = lib.fw_form_set_time_limit(ptr(self), micros)
  if status ~= OK then raise(status, "fw_form_set_time_limit") end
end

function Form:time_limit()
  local out = ffi_new("uint32_t[1]")
  local status = lib.fw_form_time_limit(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_time_limit") end
  return tonumber(out[0]) / 1e6
end

--- Frees the form now (it is also freed when collected). Later calls raise "the form is freed".
function Form:free()
  local p = self._ptr
  if p == nil then return end
  self._ptr = nil
  ffi.gc(p, nil)
  local status = lib.fw_form_free(p)
  self._validators, self._named = {}, {}
  if status ~= OK then raise(status, "fw_form_free") end
end
Form.close = Form.free

function Form:is_freed()
  return self._ptr == nil
end

--- Defines a Lua validator that specs loaded later (load_spec, from_spec) and add_field may name:
--- {"rule": "custom", "name": name}.
function Form:define_validator(name, fn)
  if type(fn) ~= "function" then argument_error("define_validator needs a function") end
  uses_callbacks(self)
  local status = lib.fw_form_define_validator(ptr(self), cstring(name, "validator name"), VALIDATE_CALLBACK,
    register(self, fn), nil)
  if status ~= OK then
    self._validators[#self._validators] = nil
    raise(status, "fw_form_define_validator")
  end
  self._named[name] = fn
end

-- ---- methods that fire events (custom validators may run inside them) --------------------------

-- Builds the fw_rule array of add_field; `anchors` keeps the Lua strings the structs point to alive.
local function rule_array(self, id, rules, anchors)
  local n = #rules
  local array = ffi_new("fw_rule[?]", n > 0 and n or 1)
  local fresh = 0
  for i = 1, n do
    local r, c = rules[i], array[i - 1]
    if type(r) ~= "table" then argument_error(("rule %d of %s is a %s, not a table"):format(i, id, type(r)), 3) end
    local kind = RULE_KIND[r.rule]
    if kind == nil then argument_error(("rule %d of %s: unknown rule %s"):format(i, id, tostring(r.rule)), 3) end
    c.size = ffi.sizeof("fw_rule")
    c.kind = kind
    if r.message ~= nil then
      anchors[#anchors + 1] = cstring(r.message, "a rule's message")
      c.message = r.message
    end
    if r.rule == "min_length" or r.rule == "max_length" then
      if type(r.length) ~= "number" then argument_error(("rule %d of %s: length must be a number"):format(i, id), 3) end
      c.length = r.length
    elseif r.rule == "regex" or r.rule == "matches" then
      local text = r.rule == "regex" and r.pattern or r.field
      anchors[#anchors + 1] = cstring(text, r.rule == "regex" and "a regex pattern" or "a matches field")
      c.text = text
    elseif r.rule == "custom" then
      local fn = r.validate
      if fn == nil then fn = r.name end
      if type(fn) == "string" then fn = self._named[fn] end
      if type(fn) ~= "function" then
        argument_error(("rule %d of %s: a custom rule needs a function (validate) or a defined validator's name"):format(i, id), 3)
      end
      c.validate = VALIDATE_CALLBACK
      c.context = register(self, fn)
      fresh = fresh + 1
    end
  end
  return array, n, fresh
end

--- Adds a field and its rules in one atomic call (fw_form_add_field_with_rules).
--- options: {label = "Email", initial = "..."}.
function Form:add_field(id, rules, options)
  rules, options = rules or {}, options or {}
  local anchors = {}
  local array, n, fresh = rule_array(self, cstring(id, "field id"), rules, anchors)
  if fresh > 0 then uses_callbacks(self) end
  return self:_add_field_call(id, options, array, n, fresh)
end

local events = {}

function events._add_field_call(self, id, options, array, n, fresh)
  local status = lib.fw_form_add_field_with_rules(ptr(self), id, optional_cstring(options.label, "label"),
    optional_cstring(options.initial, "initial value"), array, n)
  if status ~= OK then
    for _ = 1, fresh do self._validators[#self._validators] = nil end
    raise(status, "fw_form_add_field_with_rules")
  end
  self._initial[id] = options.initial or ""
  return self
end

--- Loads a JSON spec (fw_form_load_spec) into this form; custom rules name define_validator's names.
function events.load_spec(self, text)
  local status = lib.fw_form_load_spec(ptr(self), cstring(text, "spec"))
  if status ~= OK then raise(status, "fw_form_load_spec") end
  self._spec_texts[#self._spec_texts + 1] = text
  return self
end

function events.focus(self, id)
  local status = lib.fw_field_focus(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_focus") end
end

function events.blur(self, id)
  local status = lib.fw_field_blur(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_blur") end
end

function events.touch(self, id)
  local status = lib.fw_field_touch(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_touch") end
end

--- Sets the value (typing when the field is focused, else programmatic).
function events.set(self, id, value)
  local p = ptr(self)
  local status = lib.fw_field_set_value(p, cstring(id, "field id"), cstring(value, "value"))
  if status ~= OK then raise(status, "fw_field_set_value") end
end

--- Sets the value and returns the new state, in one call (fw_field_update / fw_field_update_at when
--- `id` is a 1-based index): a keystroke and the redraw it needs.
function events.update(self, id, value)
  local p, s = ptr(self), self._snap
  local status
  if type(id) == "number" then
    status = lib.fw_field_update_at(p, id - 1, cstring(value, "value"), s, self._buf, self._bufsize)
  else
    status = lib.fw_field_update(p, cstring(id, "field id"), cstring(value, "value"), s, self._buf, self._bufsize)
  end
  if status ~= OK then
    if status ~= ERR_TOO_SMALL then raise(status, "fw_field_update") end
    grow(self, s.text_size)
    return snapshot_table(snapshot(self, id))
  end
  return snapshot_table(s)
end

function events.touch_all(self)
  local status = lib.fw_form_touch_all(ptr(self))
  if status ~= OK then raise(status, "fw_form_touch_all") end
end

--- Submit: touches every field, judges every field strictly; returns true when all pass.
function events.validate(self)
  local out = ffi_new("bool[1]")
  local status = lib.fw_form_validate(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_validate") end
  return out[0]
end

function events.reset(self)
  local status = lib.fw_form_reset(ptr(self))
  if status ~= OK then raise(status, "fw_form_reset") end
end

-- check_many: records (an array of {id = value}) judged as submits of a fresh form, in one
-- fw_form_check_batch call. A record that leaves a field out holds the field's initial value.
-- A field's initial value: remembered by add_field, or read from the specs loaded (decoded only
-- when a record leaves a field out).
local function initial_value(self, id)
  local texts = self._spec_texts
  if self._initial[id] == nil and #texts > 0 then
    local json = require("formwell_json")
    for _, text in ipairs(texts) do
      for _, field in ipairs(json.decode(text).fields) do
        self._initial[field.id] = type(field.initial) == "string" and field.initial or ""
      end
    end
    self._spec_texts = {}
  end
  return self._initial[id] or ""
end

local CheckResult = {}
CheckResult.__index = CheckResult

function events.check_many(self, records, threads)
  local p = ptr(self)
  local n = #records
  local ids = self:fields()
  local nfields = #ids
  local columns = ffi_new("fw_column[?]", nfields > 0 and nfields or 1)
  local anchors, used = {}, 0
  for f = 1, nfields do
    local id = ids[f]
    local named = false
    for r = 1, n do
      if records[r][id] ~= nil then named = true break end
    end
    if named then
      local parts, offsets, at = {}, ffi_new("int64_t[?]", n + 1), 0
      for r = 1, n do
        local v = records[r][id]
        if v == nil then v = initial_value(self, id) end
        if type(v) ~= "string" then argument_error(("record %d: %s must be a string, not %s"):format(r, id, type(v))) end
        offsets[r - 1] = at
        parts[r] = v
        at = at + #v
      end
      offsets[n] = at
      local data = table.concat(parts)
      anchors[#anchors + 1], anchors[#anchors + 2] = data, offsets
      local c = columns[used]
      c.size = ffi.sizeof("fw_column")
      c.field_id = id
      c.offsets = offsets
      c.data = data
      c.data_size = #data
      c.offset_size = 8
      used = used + 1
    end
  end
  for r = 1, n do
    for key in pairs(records[r]) do
      local known = false
      for f = 1, nfields do if ids[f] == key then known = true break end end
      if not known then argument_error(("record %d names no field of the form: %s"):format(r, tostring(key))) end
    end
  end
  local cells = n * nfields
  local valid = ffi_new("uint8_t[?]", n > 0 and n or 1)
  local failing = ffi_new("int32_t[?]", cells > 0 and cells or 1)
  local flags = ffi_new("uint8_t[?]", cells > 0 and cells or 1)
  local invalid = ffi_new("size_t[1]")
  local status = lib.fw_form_check_batch(p, columns, used, n, threads or 0, valid, failing, flags, invalid)
  if status ~= OK then raise(status, "fw_form_check_batch") end
  local result = setmetatable({ valid = {}, invalid_count = tonumber(invalid[0]), _form = self, _ids = ids,
    _failing = failing, _flags = flags, _columns = columns, _used = used, _n = n, _anchors = anchors,
    _rule_messages = {} }, CheckResult)
  for r = 1, n do result.valid[r] = valid[r - 1] == 1 end
  return result
end

--- The errors of record i (1-based): {id = message} for every failing field ({} when valid).
function CheckResult:errors(i)
  local errors, nfields, form = {}, #self._ids, self._form
  for f = 1, nfields do
    local cell = (i - 1) * nfields + (f - 1)
    local rule = self._failing[cell]
    if rule >= 0 then
      local message
      if bit.band(self._flags[cell], CELL_OWN_MESSAGE) ~= 0 then
        message = read_string(form, "fw_form_batch_message", function(p, buf, size, out)
          return lib.fw_form_batch_message(p, self._columns, self._used, self._n, i - 1, f - 1, buf, size, out)
        end)
      else
        local key = f * 65536 + rule
        message = self._rule_messages[key]
        if message == nil then
          message = read_string(form, "fw_form_rule_message", function(p, buf, size, out)
            return lib.fw_form_rule_message(p, f - 1, rule, buf, size, out)
          end)
          self._rule_messages[key] = message
        end
      end
      errors[self._ids[f]] = message
    end
  end
  return errors
end

--- The 1-based rule index failing for record i and field id (nil when it passes).
function CheckResult:failing_rule(i, id)
  for f, fid in ipairs(self._ids) do
    if fid == id then
      local rule = self._failing[(i - 1) * #self._ids + (f - 1)]
      return rule >= 0 and rule + 1 or nil
    end
  end
  argument_error("no field " .. tostring(id))
end

-- JIT: LuaJIT panics ("bad callback") when a C function called from JIT-compiled code calls back
-- into Lua: a trace recorded while no validator ran (say, on empty values, which validators never
-- see) would later make the same C call and enter a validator. So every event function exists
-- twice: as written (JIT-compiled freely) for forms without Lua validators, and as a COPY (a fresh
-- prototype, from string.dump, sharing the original's upvalues) with JIT compilation off, which
-- the method runs once the form has a Lua validator (self._callbacks). LuaJIT never compiles or
-- inlines a jit.off function, so those C calls always come from the interpreter; a trace that
-- reaches one stops there. The check is a field read per call, and it is made on every call, so a
-- method looked up (or a trace compiled) before the first validator was attached is still safe.
local function jit_off_copy(fn)
  local copy = assert(loadstring(string.dump(fn)))
  local i = 1
  while debug.getupvalue(fn, i) ~= nil do
    debug.upvaluejoin(copy, i, fn, i)
    i = i + 1
  end
  jit.off(copy)
  return copy
end

for name, fn in pairs(events) do
  local interpreted = jit_off_copy(fn)
  Form[name] = function(self, a, b, c, d, e)
    if self._callbacks then return interpreted(self, a, b, c, d, e) end
    return fn(self, a, b, c, d, e)
  end
end

-- ---- module functions ----------------------------------------------------------------------

--- A form from a JSON spec (text). options.validators: {name = function} for its custom rules.
function formwell.from_spec(text, options)
  local form = new_form()
  local validators = options and options.validators
  if validators then
    for name, fn in pairs(validators) do form:define_validator(name, fn) end
  end
  local ok, err = pcall(form.load_spec, form, text)
  if not ok then
    form:free()
    error(err, 2)
  end
  return form
end

--- A form from a JSON spec file.
function formwell.from_file(path, options)
  local file, err = io.open(path, "rb")
  if not file then error("formwell: " .. err, 2) end
  local text = file:read("*a")
  file:close()
  return formwell.from_spec(text, options)
end

--- Number of forms alive in the library (fw_form_live_count).
function formwell.live_count()
  return tonumber(lib.fw_form_live_count())
end

return formwell
