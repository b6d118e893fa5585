/*-------------------------------------------------------------------------
 *
 * cftype_validate.c
 *	  Validate encoded values the way Cassandra's AbstractType.validate does,
 *	  with its MarshalException texts (Cassandra 1.2).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "marshal/cftype.h"

/*
 * Cassandra's UTF8Type.UTF8Validator, state for state.  It is not a strict
 * UTF-8 check: it accepts the modified-UTF-8 NUL (C0 80), surrogates, lead
 * bytes F5-F7, and (a quirk of its masks) E0 or F0 followed by some bytes
 * that are not continuation bytes.  We reproduce it exactly so that what
 * Cassandra stored, cfstore accepts, and nothing more.
 */
typedef enum
{
	U_START,
	U_TWO,
	U_TWO_80,
	U_THREE_A0BF,
	U_THREE_80BF_1,
	U_THREE_80BF_2,
	U_FOUR_90BF,
	U_FOUR_80BF_3
} CfUtf8State;

/* Does data pass Cassandra's UTF-8 validator? */
bool
cfUtf8Valid(const uint8 *data, int len)
{
	CfUtf8State state = U_START;

	for (int i = 0; i < len; i++)
	{
		int8		b = (int8) data[i];

		switch (state)
		{
			case U_START:
				if (b >= 0)
					break;		/* ASCII */
				if ((b >> 5) == -2)
				{
					if ((uint8) b == 0xc0)
						state = U_TWO_80;
					else if ((b & 0x1e) == 0)
						return false;
					else
						state = U_TWO;
				}
				else if ((b >> 4) == -2)
					state = ((uint8) b == 0xe0) ? U_THREE_A0BF : U_THREE_80BF_2;
				else if ((b >> 3) == -2)
					state = ((uint8) b == 0xf0) ? U_FOUR_90BF : U_FOUR_80BF_3;
				else
					return false;
				break;
			case U_TWO:
				if ((b & 0xc0) != 0x80)
					return false;
				state = U_START;
				break;
			case U_TWO_80:
				if ((uint8) b != 0x80)
					return false;
				state = U_START;
				break;
			case U_THREE_A0BF:
				if ((b & 0xe0) == 0x80)
					return false;
				state = U_THREE_80BF_1;
				break;
			case U_THREE_80BF_1:
				if ((b & 0xc0) != 0x80)
					return false;
				state = U_START;
				break;
			case U_THREE_80BF_2:
				if ((b & 0xc0) != 0x80)
					return false;
				state = U_THREE_80BF_1;
				break;
			case U_FOUR_90BF:
				if ((b & 0x30) == 0)
					return false;
				state = U_THREE_80BF_2;
				break;
			case U_FOUR_80BF_3:
				if ((b & 0xc0) != 0x80)
					return false;
				state = U_THREE_80BF_2;
				break;
		}
	}
	return state == U_START;
}

/* Validate a CompositeType value component by component. */
static char *
validate_composite(const CfType *type, const uint8 *data, int len)
{
	int			pos = 0;

	for (int i = 0; pos < len; i++)
	{
		int			clen;
		char	   *msg;

		if (i >= type->nsub)
			return pstrdup("Too many bytes for comparator");
		if (len - pos < 2)
			return psprintf("Not enough bytes to read value size of component %d", i);
		clen = (data[pos] << 8) | data[pos + 1];
		pos += 2;
		if (len - pos < clen)
			return psprintf("Not enough bytes to read value of component %d", i);
		msg = cfTypeValidateMessage(type->sub[i], data + pos, clen);
		if (msg != NULL)
			return msg;
		pos += clen;
		if (pos >= len)
			return psprintf("Not enough bytes to read the end-of-component byte of component%d", i);
		if (data[pos] != 0 && pos + 1 < len)
			return psprintf("Invalid bytes remaining after an end-of-component at component%d", i);
		pos++;
	}
	return NULL;
}

/*
 * Return NULL if the value is valid for the type, else the MarshalException
 * message Cassandra would give (palloc'd).
 */
char *
cfTypeValidateMessage(const CfType *type, const uint8 *data, int len)
{
	switch (type->kind)
	{
		case CF_BYTES:
		case CF_INTEGER:
		case CF_DECIMAL:
			return NULL;
		case CF_ASCII:
			for (int i = 0; i < len; i++)
				if (data[i] > 127)
					return psprintf("Invalid byte for ascii: %d", (int) (int8) data[i]);
			return NULL;
		case CF_UTF8:
			return cfUtf8Valid(data, len) ? NULL : pstrdup("String didn't validate.");
		case CF_LONG:
		case CF_COUNTER:
			if (len != 0 && len != 8)
				return psprintf("Expected 8 or 0 byte long (%d)", len);
			return NULL;
		case CF_INT32:
			if (len != 0 && len != 4)
				return psprintf("Expected 4 or 0 byte int (%d)", len);
			return NULL;
		case CF_FLOAT:
			if (len != 0 && len != 4)
				return psprintf("Expected 4 or 0 byte value for a float (%d)", len);
			return NULL;
		case CF_DOUBLE:
			if (len != 0 && len != 8)
				return psprintf("Expected 8 or 0 byte value for a double (%d)", len);
			return NULL;
		case CF_BOOLEAN:
			if (len != 0 && len != 1)
				return psprintf("Expected 1 or 0 byte value (%d)", len);
			return NULL;
		case CF_DATE:
			if (len != 0 && len != 8)
				return psprintf("Expected 8 or 0 byte long for date (%d)", len);
			return NULL;
		case CF_UUID:
			if (len != 0 && len != CF_UUID_LEN)
				return pstrdup("UUIDs must be exactly 16 bytes");
			return NULL;
		case CF_LEXICALUUID:
			if (len != 0 && len != CF_UUID_LEN)
				return psprintf("LexicalUUID should be 16 or 0 bytes (%d)", len);
			return NULL;
		case CF_TIMEUUID:
			if (len == 0)
				return NULL;
			if (len != CF_UUID_LEN)
				return psprintf("TimeUUID should be 16 or 0 bytes (%d)", len);
			if ((data[6] & 0xf0) != 0x10)
				return pstrdup("Invalid version for TimeUUID type.");
			return NULL;
		case CF_COMPOSITE:
			return validate_composite(type, data, len);
		case CF_REVERSED:
			return cfTypeValidateMessage(type->sub[0], data, len);
	}
	elog(ERROR, "unrecognized cfstore type kind %d", (int) type->kind);
	return NULL;
}

/* Raise the Cassandra marshal message if the value is not valid for the type. */
void
cfTypeValidate(const CfType *type, const uint8 *data, int len)
{
	char	   *msg = cfTypeValidateMessage(type, data, len);

	if (msg != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", msg)));
}
