-- Views are served as stored: json keeps the field order the code wrote (the schema's order),
-- where jsonb would reorder keys. Nothing queries inside a view body.
ALTER TABLE market_views ALTER COLUMN body TYPE json USING body::json;
